import Foundation

/// The watchlist's times: milliseconds since 1970 in UTC, written on the wire as RFC 3339 with
/// milliseconds (`2026-11-24T09:30:00.250Z`).
public enum WatchlistClock {
    private static let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    public static func string(_ milliseconds: Int64) -> String {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000).formatted(style)
    }

    /// The milliseconds `text` names, or `nil` when it is not such a time or not from the year
    /// 2000 to 9999. A time without fractions, or with another offset, is read too.
    public static func milliseconds(_ text: String) -> Int64? {
        guard let date = try? Date(text, strategy: style),
              (946_684_800...253_402_300_799).contains(date.timeIntervalSince1970)
        else { return nil }
        return Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    public static func now(_ date: Date = Date()) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }
}
