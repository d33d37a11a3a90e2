import MovieContract

/// The engine's one rule for a write of any kind of record, decided from what storage holds, the
/// same for every kind and every backend: a change whose id was seen is `repeated` (or makes the
/// whole write a 422 when it says something else), one whose key storage refuses is refused so
/// (`unknownMovie`, `unknownList`),
/// and otherwise the greater ``WatchlistVersion`` wins (`applied`) or the change loses
/// (`superseded`), removals kept as tombstones. Each change is ordered first by
/// ``SyncDecision/order(_:latest:after:)``.
package struct SyncDecision<Change: SyncedChange>: Sendable {
    /// What became of one change.
    package struct Outcome: Sendable {
        /// The change as it is ordered.
        package var change: Change
        package var outcome: WatchlistChangeOutcome
        /// The time the change was ordered by, when it was applied or superseded, or first taken
        /// for a repeat.
        package var orderedAt: Int64?
        /// For a repeat, what became of the change when it was first taken, when the journal says.
        package var firstOutcome: WatchlistChangeOutcome?
    }

    /// Each change's outcome, in the order sent.
    package var outcomes: [Outcome]
    /// Records to insert or replace, the last one per key, by key.
    package var written: [Change.Record]
    /// The changes to journal as seen (repeats are not), as sent, with their outcome and time.
    package var journal: [(change: Change, outcome: WatchlistChangeOutcome, orderedAt: Int64?)]
    /// The records as they stand after the write, by key: what an answer about one key names.
    package var records: [Change.Key: Change.Record]

    /// The decision for `changes`, or the id of a change sent again with other content.
    package static func decide(
        _ changes: [Change], seen: [String: SeenChange], stored: [Change.Key: Change.Record], latest: Int64,
        refusal: (Change.Key) -> WatchlistChangeOutcome?
    ) -> Result<SyncDecision, ReusedChangeID> {
        var seen = seen
        var records = stored
        var written: [Change.Key: Change.Record] = [:]
        var decision = SyncDecision(outcomes: [], written: [], journal: [], records: [:])
        for sent in changes {
            let change = order(sent, latest: latest, after: records[sent.key])
            let outcome: WatchlistChangeOutcome
            var orderedAt: Int64?
            var firstOutcome: WatchlistChangeOutcome?
            if let earlier = seen[change.id] {
                guard earlier.fingerprint == sent.fingerprint else { return .failure(ReusedChangeID(id: change.id)) }
                outcome = .repeated
                orderedAt = earlier.orderedAt
                firstOutcome = earlier.outcome
            } else if let refused = refusal(change.key) {
                outcome = refused
            } else if let record = records[change.key], record.version >= change.version {
                outcome = .superseded
            } else {
                outcome = .applied
                records[change.key] = change.record
                written[change.key] = change.record
            }
            if outcome == .applied || outcome == .superseded { orderedAt = change.changedAt }
            if outcome != .repeated {
                seen[change.id] = SeenChange(fingerprint: sent.fingerprint, orderedAt: orderedAt, outcome: outcome)
                decision.journal.append((sent, outcome, orderedAt))
            }
            decision.outcomes.append(Outcome(change: change, outcome: outcome, orderedAt: orderedAt, firstOutcome: firstOutcome))
        }
        decision.written = written.values.sorted { $0.key < $1.key }
        decision.records = records
        return .success(decision)
    }

    /// The time `sent` is ordered by: its own, but no later than `latest` (the server's clock plus
    /// the margin). A change brought back to `latest` that its own time put after the stored record
    /// of the same device is ordered just after that record: two changes of a key from a clock
    /// far ahead would otherwise tie at `latest`, and the device's later one would lose to its
    /// earlier one. A change older than the stored one by its own time still loses, as any other.
    ///
    /// A change of another device made in the same millisecond as the stored one, which wins the
    /// tie by its device, is ordered a millisecond after it too: the versions a key holds in turn
    /// then never share a time, so a client that orders them by time alone (its store, which does
    /// not keep devices) orders them as the server does, and an acknowledgement that arrives after
    /// the winner's event cannot put the loser back. This is the one case in which a change is
    /// ordered after its own time, by one millisecond: a device stamps its next change of the key
    /// after that millisecond while the answer is unread.
    package static func order(_ sent: Change, latest: Int64, after stored: Change.Record?) -> Change {
        var time = min(sent.changedAt, latest)
        if let stored, stored.version.device == sent.device, time <= stored.version.changedAt, sent.changedAt > stored.version.changedAt {
            time = stored.version.changedAt + 1
        } else if let stored, stored.version.device != sent.device, time == stored.version.changedAt,
                  WatchlistVersion(changedAt: time, device: sent.device) > stored.version {
            time += 1
        }
        return time == sent.changedAt ? sent : sent.ordered(at: time)
    }
}

/// A change id sent again with other content than the first time: the whole write is refused.
package struct ReusedChangeID: Error, Sendable {
    package var id: String
}
