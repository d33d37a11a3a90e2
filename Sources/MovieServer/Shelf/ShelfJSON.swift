import Foundation
import MovieContract

/// A shelf kind's JSON: a batch read strictly (a clear 400 naming the change and what is wrong),
/// and the answers written.
enum ShelfJSON {
    /// The most groups (lists) one batch may add to: each is counted when the batch is applied.
    static let maximumGroups = 20

    /// The changes of `body`, each checked by `Kind`, and the movie each key's record is about.
    static func batch<Kind: ShelfKind>(_ body: Data, of kind: Kind.Type) throws(ErrorAnswer) -> (changes: [ShelfChangeRecord], movies: [String: Int], groups: [String: String]) {
        let fields: ShelfWire<Kind.Value>.Batch
        do { fields = try JSONDecoder().decode(ShelfWire<Kind.Value>.Batch.self, from: body) } catch {
            throw .badRequest("The body must be {\"changes\": [{\"id\", \"key\", \"value\", \"changedAt\", \"device\"}]}: \(WatchlistJSON.reason(error)).")
        }
        let limit = APILimits.watchlistBatch
        guard (1...limit).contains(fields.changes.count) else {
            throw .badRequest("A batch holds 1 to \(limit) changes, not \(fields.changes.count).")
        }
        var changes: [ShelfChangeRecord] = []
        var movies: [String: Int] = [:]
        var groups: [String: String] = [:]
        changes.reserveCapacity(fields.changes.count)
        for (index, change) in fields.changes.enumerated() {
            let place = "Change \(index + 1)"
            if let problem = Kind.problem(withKey: change.key) { throw .badRequest("\(place): \(problem).") }
            var text: String?
            // A removal is held to the catalogue too when its key names the movie, so that
            // removals of movies that do not exist cannot pile up tombstones.
            if change.value == nil, let movie = Kind.movieID(key: change.key) { movies[change.key] = movie }
            if let value = change.value {
                if let problem = Kind.problem(with: value, key: change.key) { throw .badRequest("\(place): \(problem).") }
                text = Kind.text(of: value)
                movies[change.key] = Kind.movieID(key: change.key, value: value)
                if Kind.groupLimit != nil, let group = ShelfKeys.group(of: change.key) { groups[change.key] = group }
            }
            changes.append(ShelfChangeRecord(
                id: try WatchlistJSON.key(change.id, what: "\(place): the id"), kind: Kind.name, key: change.key, value: text,
                changedAt: try WatchlistJSON.time(change.changedAt), device: try WatchlistJSON.device(change.device)
            ))
        }
        if Set(groups.values).count > maximumGroups {
            throw .badRequest("A batch changes the movies of at most \(maximumGroups) lists, not \(Set(groups.values).count).")
        }
        return (changes, movies, groups)
    }

    /// `{"results": [{"id", "key", "outcome", "changedAt", "firstOutcome"}]}`, as the watchlist's batch answer.
    static func results(_ outcomes: [SyncDecision<ShelfChangeRecord>.Outcome]) -> WatchlistAnswer {
        let results = outcomes.map { outcome in
            ShelfResults.Result(
                id: outcome.change.id, key: outcome.change.key, outcome: outcome.outcome.rawValue,
                changedAt: outcome.orderedAt.map(WatchlistClock.string), firstOutcome: outcome.firstOutcome?.rawValue
            )
        }
        return WatchlistAnswer(status: 200, body: encode(ShelfResults(results: results)))
    }

    /// `{"entries": [{"key", "value", "changedAt", "title", "year"}], "removed": [{"key", "changedAt"}], "next"}`,
    /// by key, its keys sorted as the contract's encoder sorts them. Written by hand: a page holds a
    /// thousand records, and encoding them spent most of a page's time. A value is its stored
    /// text, which the engine wrote with ``ShelfKind/text(of:)`` and which read back as the kind's.
    static func list<Kind: ShelfKind>(_ entries: [(ShelfEntry, Kind.Value?)], of kind: Kind.Type, titles: [Int: MovieTitle], next: String? = nil) -> String {
        var kept = "", removed = ""
        kept.reserveCapacity(entries.count * 160)
        for (entry, value) in entries {
            let changedAt = WatchlistClock.string(entry.version.changedAt)
            if entry.removed {
                removed += removed.isEmpty ? "{" : ",{"
                removed += #""changedAt":""# + changedAt + #"","key":"#
                ContractJSON.writeString(entry.key, to: &removed)
                removed += "}"
            } else if let value {
                let title = Kind.movieID(key: entry.key, value: value).flatMap { titles[$0] }
                kept += kept.isEmpty ? "{" : ",{"
                kept += #""changedAt":""# + changedAt + #"","key":"#
                ContractJSON.writeString(entry.key, to: &kept)
                if let title {
                    kept += #","title":"#
                    ContractJSON.writeString(title.name, to: &kept)
                }
                kept += #","value":"# + entry.value
                if let year = title?.year { kept += #","year":"# + String(year) }
                kept += "}"
            }
        }
        var text = #"{"entries":["# + kept + "]"
        if let next {
            text += #","next":"#
            ContractJSON.writeString(next, to: &text)
        }
        return text + #","removed":["# + removed + "]}"
    }

    /// Each entry with its value read (nil for a removal), all values of a page in one parse.
    static func decoded<Kind: ShelfKind>(_ entries: [ShelfEntry], of kind: Kind.Type) -> [(ShelfEntry, Kind.Value?)] {
        let kept = entries.filter { !$0.removed }
        var values = Kind.values(ofTexts: kept.map(\.value)).makeIterator()
        return entries.map { entry in (entry, entry.removed ? nil : values.next() ?? nil) }
    }

    private static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
