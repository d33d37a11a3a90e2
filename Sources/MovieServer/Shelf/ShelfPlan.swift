import MovieContract

/// What a shelf write does, decided by the engine's one rule (`SyncDecision`) from what storage
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
        let newKeys = Set(write.changes.map(\.key)).subtracting(state.entries.keys).count
        if newKeys > 0, state.recordCount + newKeys > write.recordLimit {
            let error = ErrorAnswer.badRequest(
                "An account keeps at most \(write.recordLimit) \(write.recordsNoun), removed ones included: this one holds \(state.recordCount)."
            )
            answer = WatchlistAnswer(status: 400, body: String(decoding: error.body, as: UTF8.self))
            return
        }
        if let full = Self.fullGroup(write, state: state) {
            let error = ErrorAnswer.badRequest("A list holds at most \(write.groupLimit) items: '\(ParameterParsing.excerpt(full))' is full. Remove some first.")
            answer = WatchlistAnswer(status: 400, body: String(decoding: error.body, as: UTF8.self))
            return
        }
        let refusal = { (key: String) -> WatchlistChangeOutcome? in
            if let movie = write.movies[key], !state.knownMovies.contains(movie) { return .unknownMovie }
            if let parent = write.parents[key], !state.knownParents.contains(parent) { return .unknownList }
            return nil
        }
        switch SyncDecision.decide(write.changes, seen: state.seenChanges, stored: state.entries, latest: write.latestChangeTime, refusal: refusal) {
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

extension ShelfPlan {
    /// A group the write would take past its limit: each key it gives a value that is not in
    /// force now counts as one more (a change that loses counts too: the bound is kept whatever
    /// the order).
    static func fullGroup(_ write: ShelfWrite, state: ShelfState) -> String? {
        guard !write.groups.isEmpty else { return nil }
        var counts = state.groupCounts
        var added = Set<String>()
        for change in write.changes where !change.isRemoval {
            guard let group = write.groups[change.key], added.insert(change.key).inserted else { continue }
            if let stored = state.entries[change.key], !stored.removed { continue }
            counts[group, default: 0] += 1
            if counts[group, default: 0] > write.groupLimit { return group }
        }
        return nil
    }
}

/// A change the journal records as seen: as sent (its fingerprint tells a repeat), what became
/// of it, and the time it was ordered by.
public struct JournaledChange<Change: Sendable & Hashable>: Sendable, Hashable {
    public var change: Change
    public var outcome: WatchlistChangeOutcome
    public var orderedAt: Int64?
}
