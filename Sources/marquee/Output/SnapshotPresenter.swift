import Foundation
import MovieStore
import Networking
import TextFormatting

/// Follows the snapshots of one call: prints a trace line for each when asked (the original
/// app's "Found N movies (callback #k)"), and an `ERROR:` line when the network failed after
/// the last of them was shown.
struct SnapshotPresenter {
    let trace: Bool
    /// Where trace lines go: standard error when standard output carries JSON.
    let traceToStandardError: Bool
    private var callback = 0
    private var lastShownHadNetworkError = false

    init(trace: Bool, traceToStandardError: Bool) {
        self.trace = trace
        self.traceToStandardError = traceToStandardError
    }

    mutating func traced<Value>(_ snapshot: AppSnapshot<Value>, describe: (Value) -> String) {
        callback += 1
        lastShownHadNetworkError = snapshot.networkError != nil
        if trace { emit("\(describe(snapshot.value)) (callback #\(callback))") }
    }

    /// The call's answer: a network failure it carries that no traced snapshot showed is traced.
    func tracedEnd<Value>(of answer: AppSnapshot<Value>) {
        guard let networkError = answer.networkError, !lastShownHadNetworkError else { return }
        if trace { emit("ERROR: \(ErrorReporter.describe(networkError))") }
    }

    func traced(_ failure: CacheFailure<NetworkError>) {
        if trace { emit("ERROR: \(ErrorReporter.describe(failure))") }
    }

    private func emit(_ line: String) {
        let handle = traceToStandardError ? FileHandle.standardError : FileHandle.standardOutput
        handle.write(Data((TerminalText.safe(line) + "\n").utf8))
    }
}
