import Foundation
#if canImport(Glibc)
import Glibc
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
#endif

/// The controlling terminal in full-screen mode: raw input (no echo, no line editing, no
/// signals from keys), the alternate screen, a hidden cursor. ``restore()`` puts every setting
/// back; it is safe to call more than once.
public final class Terminal: @unchecked Sendable {
    /// Why full-screen mode could not start.
    public enum Failure: Error, CustomStringConvertible {
        case notATerminal
        case cannotConfigure(String)

        public var description: String {
            switch self {
            case .notATerminal:
                "browse needs a terminal; standard input and output are not both one (use top-grossing, top-rated or movie --json in scripts)"
            case let .cannotConfigure(reason):
                "the terminal cannot be put in full-screen mode: \(reason)"
            }
        }
    }

    private var original = termios()
    private let lock = NSLock()
    private var isFullScreen = false

    private init() {}

    /// Fails when standard input or output is not a terminal: checked before anything starts.
    public static func requireTerminal() throws(Failure) {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { throw .notATerminal }
    }

    /// Switches the terminal to full-screen mode, or fails when standard input or output is not
    /// a terminal.
    public static func open() throws(Failure) -> Terminal {
        try requireTerminal()
        let terminal = Terminal()
        guard tcgetattr(STDIN_FILENO, &terminal.original) == 0 else { throw .cannotConfigure(String(cString: strerror(errno))) }
        var raw = terminal.original
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        raw.c_cflag |= tcflag_t(CS8)
        guard tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0 else { throw .cannotConfigure(String(cString: strerror(errno))) }
        terminal.isFullScreen = true
        terminal.write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J")
        return terminal
    }

    /// The terminal's size in columns and rows.
    public var size: (width: Int, height: Int) {
        var window = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else { return (80, 24) }
        return (Int(window.ws_col), Int(window.ws_row))
    }

    /// Draws `lines` from the top-left corner in one write. A terminal multiplexer may still show
    /// part of a frame: the terminal driver hands it the lines as they pass, not the write whole.
    public func draw(_ lines: [String]) {
        write("\u{1B}[H" + lines.joined(separator: "\r\n"))
    }

    /// Leaves the alternate screen, shows the cursor and restores the original settings.
    public func restore() {
        lock.lock()
        defer { lock.unlock() }
        guard isFullScreen else { return }
        isFullScreen = false
        write("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
        _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
    }

    private func write(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { systemWrite(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }

    /// What the terminal sends: keys as they are typed, a resize, a request to stop. Reading
    /// runs on its own thread, so no task blocks on the keyboard.
    public static func inputs() -> AsyncStream<TerminalInput> {
        let (stream, continuation) = AsyncStream<TerminalInput>.makeStream()
        let decoder = KeyDecoder()
        let reader = Thread {
            var buffer = [UInt8](repeating: 0, count: 256)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else {
                    continuation.yield(.hangUp)
                    return
                }
                continuation.yield(.keys(decoder.keys(in: Array(buffer[0..<count]))))
            }
        }
        reader.start()
        // SIGQUIT too: left to the runtime, its backtracer would draw over the screen and wait
        // for a key; here it ends the browser like SIGTERM, with the terminal restored.
        let signals = SignalPipe.start([SIGWINCH, SIGTERM, SIGINT, SIGHUP, SIGQUIT]) { number in
            continuation.yield(number == SIGWINCH ? .resize : .signal(number))
        }
        continuation.onTermination = { _ in signals?.stop() }
        return stream
    }
}

/// Something the terminal delivered to the browser.
public enum TerminalInput: Sendable, Equatable {
    case keys([Key])
    /// The window changed size (SIGWINCH).
    case resize
    /// A signal asking the program to stop: SIGTERM, SIGINT, SIGHUP or SIGQUIT.
    case signal(Int32)
    /// Standard input closed.
    case hangUp
}
