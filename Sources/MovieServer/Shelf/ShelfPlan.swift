import MovieContract

/// What a shelf write does, decided by the engine's one rule (``SyncDecision``) from what storage
/// holds, the same for every kind and backend, as ``WatchlistPlan`` is for the watchlist: a
/// request key seen before gets its first answer (a 422 for other content), a change id seen
/// before is `repeated`, the greater version wins, removals stay as tombstones, and a change about
/// a movie the catalogue lacks is `unknownMovie`.
public struct ShelfPlan: Sendable {
    public var answer: WatchlistAnswer
    /// Whether the answer is new and must be kept under the request's key.
    public var recordsAnswer: Bool
    /// Entries to insert or replace, the last one per key.
    public var entries: [ShelfEntry]
    /// Changes to record as seen, with what became of them.
    public var journal: [JournaledChange<ShelfChangeRecord>]

    public init(_ write: ShelfWrite, state: ShelfState) {
        answer = WatchlistJSON.keyReused
        recordsAnswer = false
        entries = []
        journal = []
        if let stored = state.storedRequest {
            if stored.fingerprint == write.fingerprint { answer = stored.answer }
            return
        }
        let isKnown = { (key: String) in write.movies[key].map(state.knownMovies.contains) ?? true }
        switch SyncDecision.decide(write.changes, seen: state.seenChanges, stored: state.entries, latest: write.latestChangeTime, isKnown: isKnown) {
        case let .failure(reused):
            answer = WatchlistJSON.changeReused(reused.id)
        case let .success(decision):
            answer = ShelfJSON.results(decision.outcomes)
            recordsAnswer = true
            entries = decision.written
            journal = decision.journal.map { JournaledChange(change: $0.change, outcome: $0.outcome, orderedAt: $0.orderedAt) }
        }
    }
}

/// A change the journal records as seen: as sent (its fingerprint tells a repeat), what became
/// of it, and the time it was ordered by.
public struct JournaledChange<Change: Sendable & Hashable>: Sendable, Hashable {
    public var change: Change
    public var outcome: WatchlistChangeOutcome
    public var orderedAt: Int64?
}
