import Foundation
@testable import marquee
import TextFormatting
import Testing

/// What every command writes passes the terminal-safe formatter last: the command's own line feeds
/// and tabs stay, anything else that could drive a terminal does not; a JSON document keeps its
/// strings, escaped.
@Suite("The commands' output writer")
struct TerminalOutputTests {
    static let hostile = "eve\u{1B}]0;pwned\u{07}\u{1B}[2J\u{9B}31m\u{202E}\u{7F}\u{2028}"

    @Test("text: line feeds and tabs kept, every escape code, C1 CSI, DEL, separator and override replaced")
    func text() {
        let written = TerminalText.safeOutput("Signed \(Self.hostile) out.\n\tnext line")
        #expect(written == "Signed eve�]0;pwned��[2J�31m��� out.\n\tnext line")
        #expect(TerminalText.safeOutput("plain\ttext\n") == "plain\ttext\n")
    }

    @Test("JSON: what JSONSerialization leaves raw (C1, DEL, separators, overrides) is escaped, and reads back the same")
    func json() throws {
        let document = String(decoding: try JSONSerialization.data(withJSONObject: ["note": Self.hostile]), as: UTF8.self)
        let written = TerminalText.safeOutput(document)
        #expect(!written.unicodeScalars.contains(where: TerminalText.isUnsafe))
        let read = try JSONSerialization.jsonObject(with: Data(written.utf8)) as? [String: String]
        #expect(read == ["note": Self.hostile])
    }
}
