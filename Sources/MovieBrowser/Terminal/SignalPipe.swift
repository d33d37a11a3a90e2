import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Signals as values, none lost: a handler installed with `signal` writes each signal's number to
/// a pipe, and a thread of its own reads them. A dispatch signal source is registered after it is
/// resumed, on another thread; a signal that came in between was ignored, and a SIGQUIT sent as
/// soon as the screen showed was seen to be lost.
final class SignalPipe: @unchecked Sendable {
    /// Where the handler writes: set before any handler is installed, read by the handlers only.
    nonisolated(unsafe) private static var writeEnd: Int32 = -1

    private let numbers: [Int32]

    private init(numbers: [Int32]) {
        self.numbers = numbers
    }

    /// Catches `numbers` from now on and passes each one that arrives to `deliver`, in order, from
    /// the pipe's thread; `nil` when no pipe can be made.
    static func start(_ numbers: [Int32], deliver: @escaping @Sendable (Int32) -> Void) -> SignalPipe? {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        let readEnd = ends[0]
        writeEnd = ends[1]
        let reader = Thread {
            var byte: UInt8 = 0
            while true {
                let count = read(readEnd, &byte, 1)
                if count < 0, errno == EINTR { continue }
                guard count == 1 else { return }
                deliver(Int32(byte))
            }
        }
        reader.start()
        for number in numbers {
            _ = signal(number) { caught in
                var byte = UInt8(truncatingIfNeeded: caught)
                _ = write(SignalPipe.writeEnd, &byte, 1)
            }
        }
        return SignalPipe(numbers: numbers)
    }

    /// Ignores the signals from now on, as the browser has ended.
    func stop() {
        for number in numbers { _ = signal(number, SIG_IGN) }
    }
}
