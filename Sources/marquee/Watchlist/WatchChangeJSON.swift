import ArgumentParser
import Foundation
import MovieContract
import Movies

/// What `watch add --json` and `watch remove --json` print: one line naming the change made (its
/// id, the same the server's journal keeps), and what became of it, for scripts that keep a
/// history of their changes.
///
/// `{"changed": true, "changeId": "…", "movieId": 6, "action": "add", "note": "…", "changedAt": "…",
/// "delivery": "sent", "message": "…"}`; `delivery` is `sent`, `superseded` (sent, and a newer
/// change stands), `pending` (kept to be sent later), `busy` (another process is sending), or
/// `kept` (the API keeps no watchlist). A removal of a movie not on the list is
/// `{"changed": false, "movieId": 6, "message": "…"}`.
enum WatchChangeJSON {
    static let help: ArgumentHelp = "Print one line of JSON: the change's id, its time, and whether it was sent."

    static func line(_ change: WatchlistChangeRecord, delivery: WatchlistSending, message: String) -> String {
        encode(Line(
            changed: true, changeId: change.id, movieId: change.movieID, action: change.action.rawValue, note: change.note,
            changedAt: WatchlistClock.string(change.changedAt), delivery: delivery.word, message: message
        ))
    }

    static func unchanged(movieID: Int, message: String) -> String {
        encode(Line(changed: false, changeId: nil, movieId: movieID, action: nil, note: nil, changedAt: nil, delivery: nil, message: message))
    }

    private struct Line: Encodable {
        let changed: Bool
        let changeId: String?
        let movieId: Int
        let action: String?
        let note: String?
        let changedAt: String?
        let delivery: String?
        let message: String
    }

    private static func encode(_ line: Line) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(line)).map { String(decoding: $0, as: UTF8.self) } ?? #"{"changed":false}"#
    }
}

extension WatchlistSending {
    /// One word for scripts: `sent`, `superseded`, `pending`, `busy` or `kept`.
    var word: String {
        switch self {
        case let .sent(superseded, _, _): superseded ? "superseded" : "sent"
        case .busy: "busy"
        case .notSent, .pending: "pending"
        case .kept: "kept"
        }
    }
}
