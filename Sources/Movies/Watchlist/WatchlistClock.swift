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
    /// 2000 to 9999. A time without fractions, or with another offset, is read too. Every field
    /// is checked first: Foundation's parser rolls a minute of 99 or a February 30 over into the
    /// next hour or month instead of refusing it.
    public static func milliseconds(_ text: String) -> Int64? {
        guard isWellFormed(text), let date = try? Date(text, strategy: style),
              (946_684_800...253_402_300_800).contains(date.timeIntervalSince1970)
        else { return nil }
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        return milliseconds <= latest ? milliseconds : nil
    }

    private static var shape: Regex<(Substring, Substring, Substring, Substring, Substring, Substring, Substring, Substring?, Substring, Substring?, Substring?)> { /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-](\d{2}):(\d{2}))$/ }

    /// Whether `text` is an RFC 3339 date-time whose fields are all in range.
    static func isWellFormed(_ text: String) -> Bool {
        guard let match = text.wholeMatch(of: shape),
              let year = Int(match.1), let month = Int(match.2), let day = Int(match.3),
              let hour = Int(match.4), let minute = Int(match.5), let second = Int(match.6),
              (1...12).contains(month), (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second)
        else { return false }
        if let offsetHours = match.9.flatMap({ Int($0) }), let offsetMinutes = match.10.flatMap({ Int($0) }) {
            guard (0...23).contains(offsetHours), (0...59).contains(offsetMinutes) else { return false }
        }
        let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return (1...days).contains(day)
    }

    /// The last time the wire can carry: 9999-12-31T23:59:59.999Z.
    public static let latest: Int64 = 253_402_300_799_999

    public static func now(_ date: Date = Date()) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }
}
