import Foundation

/// The watchlist's times on the wire: RFC 3339 in UTC with milliseconds
/// (`2026-11-24T09:30:00.250Z`), kept as milliseconds since 1970. Parsing also takes a time
/// without fractions or with another offset.
public enum WatchlistTime {
    private static let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    public static func string(_ milliseconds: Int64) -> String {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000).formatted(style)
    }

    /// The milliseconds `text` names, or `nil` when it is not such a time or not between the
    /// years 2000 and 9999.
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
