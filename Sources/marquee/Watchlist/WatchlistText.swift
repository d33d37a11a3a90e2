import MovieStore
import Movies
import Networking
import TextFormatting

/// The watchlist's words for the console.
enum WatchlistText {
    static func describe(_ failure: WatchlistSyncFailure<NetworkError>) -> String {
        ErrorReporter.describe(failure)
    }

    /// "sent 3 changes (1 superseded by a newer change from another device)".
    static func summary(of report: WatchlistPushReport) -> String {
        guard case let .sent(counts, unknown) = report else { return "another process was sending the changes" }
        var parts: [String] = []
        if let superseded = counts[.superseded], superseded > 0 {
            parts.append("\(superseded) superseded by a newer change from another device")
        }
        if let repeated = counts[.repeated], repeated > 0 {
            parts.append("\(repeated) already applied by an earlier attempt")
        }
        if !unknown.isEmpty {
            parts.append("\(unknown.count) dropped: the server has no movie \(unknown.prefix(5).map(String.init).joined(separator: ", "))")
        }
        let sent = "sent \(NumberText.counted(report.delivered, "change"))"
        return parts.isEmpty ? sent : sent + " (" + parts.joined(separator: "; ") + ")"
    }
}
