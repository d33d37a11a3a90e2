import Foundation

/// The watchlist's times: milliseconds since 1970 in UTC, written on the wire as RFC 3339 with
/// milliseconds (`2026-11-24T09:30:00.250Z`).
public enum WatchlistClock {
    private static let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let wholeSeconds = Date.ISO8601FormatStyle()

    /// Written from whole seconds and the milliseconds apart: Foundation's formatter cuts the
    /// fraction of a `Double` (…40.001 prints as …40.000), which would give two changes one
    /// millisecond apart the same time.
    public static func string(_ milliseconds: Int64) -> String {
        let (seconds, fraction) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        let (whole, part) = fraction < 0 ? (seconds - 1, fraction + 1000) : (seconds, fraction)
        let text = Date(timeIntervalSince1970: Double(whole)).formatted(wholeSeconds)
        let digits = String(part)
        return text.dropLast() + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
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
