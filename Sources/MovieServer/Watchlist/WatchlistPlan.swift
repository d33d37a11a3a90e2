import MovieContract

/// What a watchlist write does, decided from what storage holds by the sync engine's one rule
/// (`SyncDecision`), the same for every backend: each backend reads a ``WatchlistState`` and
/// writes the plan in one transaction.
///
/// The rules: a request whose `Idempotency-Key` was seen gets its first answer again, unless its
/// content differs (422). A change whose id was applied before is `repeated`, changes nothing
/// and names the time it was ordered by then; one with a seen id and other content makes the
/// whole request a 422. Otherwise a
/// change wins over the stored entry when its ``WatchlistVersion`` is greater (`applied`), or
/// loses (`superseded`); removals stay as tombstones. A change stamped after the write's
/// ``WatchlistWrite/latestChangeTime`` is ordered, and kept, as made at that time, or just after the
/// same device's stored change that it follows (`order(_:latest:after:)`); its id's
/// fingerprint keeps the time it was sent with, so a retry is still a repeat. A change for a movie
/// the catalogue does not hold is `unknownMovie` and changes nothing.
public struct WatchlistPlan: Sendable {
    /// The answer to send.
    public var answer: WatchlistAnswer
    /// Whether the answer is new and must be kept under the request's key.
    public var recordsAnswer: Bool
    /// Entries to insert or replace, the last one per movie.
    public var entries: [WatchlistEntry]
    /// Changes to record as seen, with what became of them.
    public var journal: [Journaled]

    public struct Journaled: Sendable, Hashable {
        /// The change as it was sent: its fingerprint is what a repeat is told by.
        public var change: WatchlistChangeRecord
        public var outcome: WatchlistChangeOutcome
        /// The time the change was ordered by, when it was applied or superseded: what a repeat's
        /// result names.
        public var orderedAt: Int64?
    }
}

/// A change id the journal holds: the fingerprint of the change it named, the time that change
/// was ordered by (nil for an unknown movie's, or one journaled before times were kept), and what
/// became of it then.
public struct SeenChange: Sendable, Hashable {
    public var fingerprint: [UInt8]
    public var orderedAt: Int64?
    public var outcome: WatchlistChangeOutcome?

    public init(fingerprint: [UInt8], orderedAt: Int64?, outcome: WatchlistChangeOutcome? = nil) {
        self.fingerprint = fingerprint
        self.orderedAt = orderedAt
        self.outcome = outcome
    }
}

extension WatchlistPlan {
    /// The time `sent` is ordered by: the engine's rule (`SyncDecision.order(_:latest:after:)`).
    package static func order(_ sent: WatchlistChangeRecord, latest: Int64, after stored: WatchlistEntry?) -> WatchlistChangeRecord {
        SyncDecision<WatchlistChangeRecord>.order(sent, latest: latest, after: stored)
    }
}

/// What storage holds that a write depends on.
public struct WatchlistState: Sendable {
    /// The fingerprint and answer kept under the request's key, if it was seen.
    public var storedRequest: (fingerprint: [UInt8], answer: WatchlistAnswer)?
    /// The write's change ids that were seen before.
    public var seenChanges: [String: SeenChange]
    /// The stored entries of the write's movies.
    public var entries: [Int: WatchlistEntry]
    /// Which of the write's movies the catalogue holds.
    public var knownMovies: Set<Int>

    public init(storedRequest: (fingerprint: [UInt8], answer: WatchlistAnswer)?, seenChanges: [String: SeenChange], entries: [Int: WatchlistEntry], knownMovies: Set<Int>) {
        self.storedRequest = storedRequest
        self.seenChanges = seenChanges
        self.entries = entries
        self.knownMovies = knownMovies
    }
}

extension WatchlistPlan {
    public init(_ write: WatchlistWrite, state: WatchlistState) {
        if let stored = state.storedRequest {
            self.init(
                answer: stored.fingerprint == write.fingerprint ? stored.answer : WatchlistJSON.keyReused,
                recordsAnswer: false, entries: [], journal: []
            )
            return
        }
        let decision: SyncDecision<WatchlistChangeRecord>
        switch SyncDecision.decide(write.changes, seen: state.seenChanges, stored: state.entries, latest: write.latestChangeTime, refusal: { state.knownMovies.contains($0) ? nil : .unknownMovie }) {
        case let .success(decided): decision = decided
        case let .failure(reused):
            self.init(answer: WatchlistJSON.changeReused(reused.id), recordsAnswer: false, entries: [], journal: [])
            return
        }
        let results = decision.outcomes.map { WatchlistJSON.Result(change: $0.change, outcome: $0.outcome, orderedAt: $0.orderedAt, firstOutcome: $0.firstOutcome) }
        let entries = decision.records
        let journal = decision.journal.map { Journaled(change: $0.change, outcome: $0.outcome, orderedAt: $0.orderedAt) }
        let answer = switch write.shape {
        case .single:
            WatchlistJSON.singleAnswer(write.changes[0], outcome: results[0].outcome, entry: entries[write.changes[0].movieID])
        case .batch:
            WatchlistJSON.batchAnswer(results)
        }
        self.init(answer: answer, recordsAnswer: true, entries: decision.written, journal: journal)
    }
}
