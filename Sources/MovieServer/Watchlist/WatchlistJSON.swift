import Foundation
import MovieContract

/// The watchlist's JSON: request bodies read strictly (a clear 400 for anything wrong) and the
/// answers written.
///
/// - `PUT /api/watchlist/{id}`: `{"note": "…", "changedAt": "…", "device": "…"}`, every key optional.
/// - `DELETE /api/watchlist/{id}`: no body, or `{"changedAt": "…", "device": "…"}`.
/// - `POST /api/watchlist/changes`: `{"changes": [{"id", "movieId", "action": "add"|"remove",
///   "note", "changedAt", "device"}]}`, 1 to ``maximumBatch`` changes.
enum WatchlistJSON {
    static var maximumBatch: Int { APILimits.watchlistBatch }
    static var maximumDevice: Int { APILimits.deviceLength }

    static func single(_ body: Data, id: String, movieID: Int, action: WatchlistChangeRecord.Action, now: Int64) throws(ErrorAnswer) -> WatchlistChangeRecord {
        let fields: WatchlistWire.SingleChange
        if body.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) {
            fields = WatchlistWire.SingleChange()
        } else {
            do { fields = try JSONDecoder().decode(WatchlistWire.SingleChange.self, from: body) } catch {
                throw .badRequest("The body must be a JSON object such as {\"note\": \"…\", \"changedAt\": \"2026-11-24T09:30:00.000Z\"}.")
            }
        }
        if action == .remove, fields.note != nil {
            throw .badRequest("A removal takes no note.")
        }
        let changedAt = try fields.changedAt.map { text throws(ErrorAnswer) in try time(text) } ?? now
        return WatchlistChangeRecord(
            id: id, movieID: movieID, action: action, note: try note(fields.note ?? ""),
            version: WatchlistVersion(changedAt: changedAt, device: try device(fields.device ?? ""))
        )
    }

    static func batch(_ body: Data) throws(ErrorAnswer) -> [WatchlistChangeRecord] {
        let fields: WatchlistWire.Batch
        do { fields = try JSONDecoder().decode(WatchlistWire.Batch.self, from: body) } catch {
            throw .badRequest("The body must be {\"changes\": [{\"id\", \"movieId\", \"action\", \"changedAt\", …}]}: \(reason(error)).")
        }
        guard (1...maximumBatch).contains(fields.changes.count) else {
            throw .badRequest("A batch holds 1 to \(maximumBatch) changes, not \(fields.changes.count).")
        }
        var changes: [WatchlistChangeRecord] = []
        changes.reserveCapacity(fields.changes.count)
        for (index, change) in fields.changes.enumerated() {
            guard let action = WatchlistChangeRecord.Action(rawValue: change.action) else {
                throw .badRequest("Change \(index + 1): the action is \"add\" or \"remove\", not '\(ParameterParsing.excerpt(change.action))'.")
            }
            guard change.movieId >= 0 else { throw .badRequest("Change \(index + 1): the movie id must be 0 or more.") }
            if action == .remove, change.note != nil { throw .badRequest("Change \(index + 1): a removal takes no note.") }
            changes.append(WatchlistChangeRecord(
                id: try key(change.id, what: "Change \(index + 1): the id"), movieID: change.movieId, action: action,
                note: try note(change.note ?? ""),
                version: WatchlistVersion(changedAt: try time(change.changedAt), device: try device(change.device ?? ""))
            ))
        }
        return changes
    }

    /// An `Idempotency-Key` or change id: 1 to 200 visible ASCII characters.
    static func key(_ text: String?, what: String = "The Idempotency-Key header") throws(ErrorAnswer) -> String {
        guard let text, !text.isEmpty else {
            throw .badRequest("\(what) is missing: every watchlist write needs one, the same on every retry (a UUID will do).")
        }
        guard text.utf8.count <= APILimits.idempotencyKeyLength, text.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw .badRequest("\(what) must be 1 to \(APILimits.idempotencyKeyLength) visible ASCII characters.")
        }
        return text
    }

    static func time(_ text: String) throws(ErrorAnswer) -> Int64 {
        guard let milliseconds = WatchlistClock.milliseconds(text) else {
            throw .badRequest("changedAt must be an RFC 3339 time from the year 2000 to 9999, such as 2026-11-24T09:30:00.000Z, not '\(ParameterParsing.excerpt(text))'.")
        }
        return milliseconds
    }

    private static func note(_ text: String) throws(ErrorAnswer) -> String {
        if let problem = WatchlistNote.problem(with: text) { throw .badRequest(problem.prefix(1).uppercased() + problem.dropFirst() + ".") }
        return text
    }

    static func device(_ text: String) throws(ErrorAnswer) -> String {
        guard text.utf8.count <= maximumDevice, text.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw .badRequest("device must be at most \(maximumDevice) visible ASCII characters.")
        }
        return text
    }

    static func reason(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            "'\(key.stringValue)' is missing\(place(context))"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "\(context.codingPath.last?.stringValue ?? "a value") has the wrong type\(place(context))"
        default:
            "it is not valid JSON"
        }
    }

    private static func place(_ context: DecodingError.Context) -> String {
        guard let index = context.codingPath.first(where: { $0.intValue != nil })?.intValue else { return "" }
        return " in change \(index + 1)"
    }
}

extension WatchlistJSON {
    /// `{"entries": [{"movieId", "note", "changedAt", "title", "year"}], "removed": [{"movieId",
    /// "changedAt"}]}`, each newest change first; `title` and `year` are the catalogue's, left out
    /// for a movie it no longer holds. The removals (`entries` with `removed` set) tell a device
    /// when each movie left the list, so that it can tell an older change of it from a newer one.
    static func list(_ entries: [WatchlistEntry], titles: [Int: MovieTitle] = [:]) -> String {
        WatchlistWire.List(
            entries: entries.filter { !$0.removed }.map { entry in
                let title = titles[entry.movieID]
                return wire(entry, title: title?.name, year: title?.year)
            },
            removed: entries.filter(\.removed).map { removal in
                WatchlistWire.Removal(movieId: removal.movieID, changedAt: WatchlistClock.string(removal.version.changedAt))
            }
        ).json
    }

    static func singleAnswer(_ change: WatchlistChangeRecord, outcome: WatchlistChangeOutcome, entry: WatchlistEntry?) -> WatchlistAnswer {
        if outcome == .unknownMovie {
            let error = ErrorAnswer.notFound("There is no movie with id \(change.movieID).")
            return WatchlistAnswer(status: 404, body: String(decoding: error.body, as: UTF8.self))
        }
        var output = "{\"movieId\":\(change.movieID),\"outcome\":\"\(outcome.rawValue)\",\"entry\":"
        if let entry, !entry.removed { wire(entry).write(to: &output) } else { output += "null" }
        return WatchlistAnswer(status: 200, body: output + "}")
    }

    /// What became of one change of a batch.
    struct Result {
        var change: WatchlistChangeRecord
        var outcome: WatchlistChangeOutcome
        /// The time it is ordered by, for a change applied or superseded now or, `repeated`, then.
        var orderedAt: Int64?
        /// For a `repeated` change, what became of it when first taken.
        var firstOutcome: WatchlistChangeOutcome?
    }

    /// `{"results": [{"id", "movieId", "outcome", "changedAt"}]}`: `changedAt` is the time a
    /// change applied or superseded is ordered by (its own, or the server's clock plus five minutes
    /// when that is earlier, or a millisecond after the change it follows), and for a `repeated`
    /// one the time it was ordered by when first taken, so that a device whose first answer was
    /// lost still keeps the version the server keeps. A `repeated` one also names what became of it
    /// then (`firstOutcome`), so that the device keeps a change that lost as lost.
    static func batchAnswer(_ results: [Result]) -> WatchlistAnswer {
        let wire = results.map { result in
            WatchlistWire.Result(
                id: result.change.id, movieId: result.change.movieID, outcome: result.outcome.rawValue,
                changedAt: result.orderedAt.map(WatchlistClock.string), firstOutcome: result.firstOutcome?.rawValue
            )
        }
        return WatchlistAnswer(status: 200, body: WatchlistWire.Results(results: wire).json)
    }

    static var keyReused: WatchlistAnswer {
        refusal("This Idempotency-Key was used with another request: make a new key for a new change.")
    }

    static func changeReused(_ id: String) -> WatchlistAnswer {
        refusal("The change id '\(ParameterParsing.excerpt(id))' was used with another change: make a new id for a new change.")
    }

    static func refusal(_ message: String) -> WatchlistAnswer {
        let error = ErrorAnswer(.unprocessableContent, code: "idempotency_key_reused", message: message)
        return WatchlistAnswer(status: 422, body: String(decoding: error.body, as: UTF8.self))
    }

    private static func wire(_ entry: WatchlistEntry, title: String? = nil, year: Int? = nil) -> WatchlistWire.Entry {
        WatchlistWire.Entry(
            movieId: entry.movieID, note: entry.note, changedAt: WatchlistClock.string(entry.version.changedAt), title: title, year: year
        )
    }
}
