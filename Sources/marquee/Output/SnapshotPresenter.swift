import Foundation
import MovieStore

/// Follows the snapshots of one call: prints a trace line for each when asked (the original
/// app's "Found N movies (callback #k)"), and keeps the last one and how the call ended.
struct SnapshotPresenter {
    let trace: Bool
    /// Where trace lines go: standard error when standard output carries JSON.
    let traceToStandardError: Bool

    /// The last snapshot and the error the stream ended with, if any.
    func follow<Value>(_ stream: AsyncThrowingStream<MovieSnapshot<Value>, any Error>, describe: (Value) -> String) async -> (MovieSnapshot<Value>?, (any Error)?) {
        var last: MovieSnapshot<Value>?
        var callback = 0
        do {
            for try await snapshot in stream {
                callback += 1
                if trace { emit("\(describe(snapshot.value)) (callback #\(callback))") }
                last = snapshot
            }
            return (last, nil)
        } catch {
            if trace { emit("ERROR: \(ErrorReporter.describe(error))") }
            return (last, error)
        }
    }

    private func emit(_ line: String) {
        let handle = traceToStandardError ? FileHandle.standardError : FileHandle.standardOutput
        handle.write(Data((TerminalText.safe(line) + "\n").utf8))
    }
}
