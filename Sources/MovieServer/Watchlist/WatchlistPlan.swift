import MovieContract

/// What a watchlist write does, decided from what storage holds, the same for every backend:
/// each backend reads a ``WatchlistState`` and writes the plan in one transaction.
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

/// A change id the journal holds: the fingerprint of the change it named, and the time that
/// change was ordered by (nil for an unknown movie's, or one journaled before times were kept).
public struct SeenChange: Sendable, Hashable {
    public var fingerprint: [UInt8]
    public var orderedAt: Int64?

    public init(fingerprint: [UInt8], orderedAt: Int64?) {
        self.fingerprint = fingerprint
        self.orderedAt = orderedAt
    }
}

extension WatchlistPlan {
    /// The time `sent` is ordered by: its own, but no later than `latest` (the server's clock plus
    /// the margin). A change brought back to `latest` that its own time put after the stored change
    /// of the same device is ordered just after that change: two changes of a movie from a clock
    /// far ahead would otherwise tie at `latest`, and the device's later one would lose to its
    /// earlier one. A change older than the stored one by its own time still loses, as any other.
    ///
    /// A change of another device made in the same millisecond as the stored one, which wins the
    /// tie by its device, is ordered a millisecond after it too: the versions a movie holds in turn
    /// then never share a time, so a client that orders them by time alone (its store, which does
    /// not keep devices) orders them as the server does, and an acknowledgement that arrives after
    /// the winner's event cannot put the loser back. This is the one case in which a change is
    /// ordered after its own time, by one millisecond: a device stamps its next change of the movie
    /// after that millisecond while the answer is unread (``WatchlistChangeRecord``).
    package static func order(_ sent: WatchlistChangeRecord, latest: Int64, after stored: WatchlistEntry?) -> WatchlistChangeRecord {
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
        var seen = state.seenChanges
        var entries = state.entries
        var written: [Int: WatchlistEntry] = [:]
        var journal: [Journaled] = []
        var results: [WatchlistJSON.Result] = []
        for sent in write.changes {
            let change = Self.order(sent, latest: write.latestChangeTime, after: entries[sent.movieID])
            let outcome: WatchlistChangeOutcome
            var orderedAt: Int64?
            if let earlier = seen[change.id] {
                guard earlier.fingerprint == sent.fingerprint else {
                    self.init(answer: WatchlistJSON.changeReused(change.id), recordsAnswer: false, entries: [], journal: [])
                    return
                }
                outcome = .repeated
                orderedAt = earlier.orderedAt
            } else if !state.knownMovies.contains(change.movieID) {
                outcome = .unknownMovie
            } else if let stored = entries[change.movieID], stored.version >= change.version {
                outcome = .superseded
            } else {
                outcome = .applied
                entries[change.movieID] = change.entry
                written[change.movieID] = change.entry
            }
            if outcome == .applied || outcome == .superseded { orderedAt = change.changedAt }
            if outcome != .repeated {
                seen[change.id] = SeenChange(fingerprint: sent.fingerprint, orderedAt: orderedAt)
                journal.append(Journaled(change: sent, outcome: outcome, orderedAt: orderedAt))
            }
            results.append(WatchlistJSON.Result(change: change, outcome: outcome, orderedAt: orderedAt))
        }
        let answer = switch write.shape {
        case .single:
            WatchlistJSON.singleAnswer(write.changes[0], outcome: results[0].outcome, entry: entries[write.changes[0].movieID])
        case .batch:
            WatchlistJSON.batchAnswer(results)
        }
        self.init(answer: answer, recordsAnswer: true, entries: written.values.sorted { $0.movieID < $1.movieID }, journal: journal)
    }
}
