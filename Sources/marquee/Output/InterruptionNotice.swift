import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Says what an interrupted command leaves behind: while `body` runs, Ctrl-C (SIGINT) or SIGTERM
/// prints one line, `marquee: interrupted: ` and `notice`, and ends the process with 128 + the
/// signal, instead of ending it without a word. Work written so far stays as the store keeps it
/// (a transaction cut short is rolled back when the store is next opened).
enum InterruptionNotice {
    static func during<T, Failure: Error>(_ notice: String, _ body: () async throws(Failure) -> T) async throws(Failure) -> T {
        let line = Data("\nmarquee: interrupted: \(notice)\n".utf8)
        let sources = [SIGINT, SIGTERM].map { number -> any DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                FileHandle.standardError.write(line)
                exit(128 + number)
            }
            source.resume()
            return source
        }
        defer {
            for source in sources { source.cancel() }
            signal(SIGINT, SIG_DFL)
            signal(SIGTERM, SIG_DFL)
        }
        return try await body()
    }
}
