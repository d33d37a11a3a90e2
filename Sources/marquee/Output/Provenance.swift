import Foundation
import MovieStore
import TextFormatting

/// Where an answer came from and how old it is, in words:
/// "from the local store, fetched 3 minutes ago — network unavailable: …".
enum Provenance {
    /// The words, and whether they describe something other than a fresh network answer.
    struct Line {
        let text: String
        let isFromStore: Bool
    }

    /// `subject` says what a derived answer was made of: "movies of 2016".
    static func line<Value>(for snapshot: AppSnapshot<Value>, subject: String, now: Date = Date()) -> Line {
        let age = snapshot.fetchedAt.map { "fetched " + DurationText.age(now.timeIntervalSince($0)) } ?? "nothing stored yet"
        let reason = snapshot.networkError.map { " — network unavailable: \(ErrorReporter.describe($0))" } ?? ""
        switch snapshot.source {
        case .network where snapshot.revalidated:
            return Line(text: "from the local store, revalidated by the network (304 Not Modified), \(age)", isFromStore: false)
        case .network:
            let stopped = snapshot.networkError.map { " — stopped early: \(ErrorReporter.describe($0))" } ?? ""
            return Line(text: "from the network, \(age)\(stopped)", isFromStore: false)
        case .store:
            return Line(text: "from the local store, \(age)\(reason)", isFromStore: true)
        case let .searched(records):
            // A server without search (the original static site) answers its path with a 404.
            let separator = if case .status(code: 404, _)? = snapshot.networkError { "; the server has no search (404)" }
                else { reason.isEmpty ? "" : ";" + reason.dropFirst(2) }
            return Line(text: "searched \(NumberText.counted(records, "stored movie")) offline — not the server's results\(separator)", isFromStore: true)
        case let .derived(records):
            let separator = reason.isEmpty ? "" : ";" + reason.dropFirst(2)
            return Line(
                text: "derived from \(records) stored \(subject), \(age) — not the server's list\(separator)",
                isFromStore: true
            )
        }
    }
}
