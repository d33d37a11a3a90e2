import Foundation

/// A progress bar on standard error while a catalog imports, redrawn in place; nothing at all
/// when standard error is not a terminal, so logs and pipes stay clean.
final class ImportProgress: Sendable {
    private let total: Int
    private let isTerminal = isatty(STDERR_FILENO) == 1

    init(total: Int) {
        self.total = total
    }

    func show(_ done: Int) {
        guard isTerminal, total > 0 else { return }
        let width = 30
        let filled = width * done / total
        let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
        FileHandle.standardError.write(Data("\r[\(bar)] \(100 * done / total)% \(done)/\(total) movies".utf8))
    }

    func finish() {
        guard isTerminal else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
