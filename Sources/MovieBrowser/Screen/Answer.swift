import Foundation
import TextFormatting

/// Where the value on screen came from and how it stands: what the status line says.
public struct Answer: Sendable, Equatable {
    /// Where a value on screen came from.
    public enum Source: Sendable, Equatable {
        case store
        case network
        /// Made from `records` stored movies because nothing else could be shown.
        case derived(records: Int)
        /// The stored movies that match a search, found among `records`, because the server could not be asked.
        case searched(records: Int)
    }

    /// `nil` until anything is on screen.
    public var source: Source?
    /// When the network gave the value on screen.
    public var fetchedAt: Date?
    /// Whether a network answer is still awaited.
    public var isRefreshing = false
    /// Why the last network call failed, in words safe to print.
    public var failure: String?

    public init(source: Source? = nil, fetchedAt: Date? = nil, isRefreshing: Bool = false, failure: String? = nil) {
        self.source = source
        self.fetchedAt = fetchedAt
        self.isRefreshing = isRefreshing
        self.failure = failure
    }

    /// The status line: "from the local store, fetched 3 minutes ago — refreshing…", "from the
    /// network, just now", or the stored answer with why the network could not refresh it (r retries).
    /// `subject` names what a derived answer was made of ("movies of 2016").
    public func status(now: Date, subject: String) -> String {
        let age = fetchedAt.map { "fetched " + DurationText.age(now.timeIntervalSince($0)) }
        var text: String
        switch source {
        case nil:
            text = isRefreshing ? "asking the network…" : "nothing stored"
        case .network:
            text = "from the network, " + (fetchedAt.map { DurationText.age(now.timeIntervalSince($0)) } ?? "just now")
        case .store:
            text = "from the local store, " + (age ?? "nothing stored yet")
        case let .derived(records):
            text = "derived from \(records) stored \(subject)\(age.map { ", " + $0 } ?? "") — not the server's list"
        case let .searched(records):
            text = "searched \(NumberText.counted(records, "stored movie")) offline — not the server's results"
        }
        if isRefreshing, source != nil { text += " — refreshing…" }
        if let failure, !isRefreshing { text += " — not refreshed: \(failure)" }
        return text
    }
}
