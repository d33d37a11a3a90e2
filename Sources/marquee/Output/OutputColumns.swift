import Foundation
import TextFormatting
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How wide standard output is: the terminal's columns, or `nil` when the output goes to a file
/// or a pipe, where no line is cut to fit.
enum OutputColumns {
    static var ofStandardOutput: Int? {
        guard isatty(STDOUT_FILENO) == 1 else { return nil }
        var window = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0 else { return nil }
        return Int(window.ws_col)
    }

    /// A column as wide as its widest `cells` (and its `header`), within what a terminal of
    /// `columns` leaves once `beside` columns are spoken for; never narrower than `least`.
    static func width(of cells: [String], header: String, beside: Int, columns: Int?, least: Int = 20) -> Int {
        let widest = ([header] + cells).map(DisplayWidth.of).max() ?? 0
        guard let columns else { return widest }
        return min(widest, max(least, columns - beside))
    }
}
