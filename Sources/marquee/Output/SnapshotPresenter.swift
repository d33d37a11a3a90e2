import Foundation
import MovieStore
import TextFormatting

/// Follows the snapshots of one call: prints a trace line for each when asked (the original
/// app's "Found N movies (callback #k)"), and ends with the call's answer.
struct SnapshotPresenter {
    let trace: Bool
    /// Where trace lines go: standard error when standard output carries JSON.
    let traceToStandardError: Bool

    /// The answer the call ends with (``MovieSnapshot/last(of:each:failure:)``), traced on the way.
    func answer<Value>(of stream: AsyncThrowingStream<MovieSnapshot<Value>, any Error>, describe: (Value) -> String) async throws -> MovieSnapshot<Value> {
        var callback = 0
        return try await MovieSnapshot.last(
            of: stream,
            each: { snapshot in
                callback += 1
                if trace { emit("\(describe(snapshot.value)) (callback #\(callback))") }
            },
            failure: { error in
                if trace { emit("ERROR: \(ErrorReporter.describe(error))") }
            }
        )
    }

    private func emit(_ line: String) {
        let handle = traceToStandardError ? FileHandle.standardError : FileHandle.standardOutput
        handle.write(Data((TerminalText.safe(line) + "\n").utf8))
    }
}
