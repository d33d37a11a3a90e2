import Foundation
import MovieStore

/// Where an answer came from and how old it is, in words:
/// "from the local store, fetched 3 minutes ago — network unavailable: …".
enum Provenance {
    /// The words, and whether they describe stored data.
    struct Line {
        let text: String
        let isFromStore: Bool
    }

    static func line<Value>(for snapshot: MovieSnapshot<Value>, networkError: (any Error)?, now: Date = Date()) -> Line {
        let age = snapshot.fetchedAt.map { "fetched " + Self.age(now.timeIntervalSince($0)) } ?? "nothing stored yet"
        switch snapshot.source {
        case .network:
            return Line(text: "from the network, \(age)", isFromStore: false)
        case .store:
            let failure = networkError ?? snapshot.networkError
            let reason = failure.map { " — network unavailable: \(ErrorReporter.describe($0))" } ?? ""
            return Line(text: "from the local store, \(age)\(reason)", isFromStore: true)
        }
    }

    static func age(_ seconds: TimeInterval) -> String {
        seconds < 5 ? "just now" : DurationText.span(seconds) + " ago"
    }
}
