import Foundation
import TextFormatting

/// The one way `marquee`'s commands write their answers: whatever they write passes
/// ``TerminalText/safeOutput(_:)`` first, so that no name, title, note or message from a server or
/// a file reaches the terminal with an escape code in it, on any command, even when a command
/// forgot to make a field safe. (`browse` draws its screen through its own terminal, and the
/// log and error lines have their own writers, both with the same formatter.)
enum TerminalOutput {
    /// Writes `text` on standard output at once, unbuffered.
    static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(TerminalText.safeOutput(text).utf8))
    }
}

/// `print` in this module: Swift's, through ``TerminalText/safeOutput(_:)``.
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    Swift.print(TerminalText.safeOutput(items.map { "\($0)" }.joined(separator: separator)), terminator: terminator)
}
