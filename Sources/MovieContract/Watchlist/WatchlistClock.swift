import Foundation

/// The watchlist's times: milliseconds since 1970 in UTC, written on the wire as RFC 3339 with
/// milliseconds (`2026-11-24T09:30:00.250Z`).
public enum WatchlistClock {
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
    /// 2000 to 9999. Any RFC 3339 date-time is read: without fractions, with any offset to ±23:59,
    /// and with a leap second (`:60`), read as the last millisecond of its minute. Every field is
    /// checked and the time computed here, not by Foundation's parser, which rolls a minute of 99
    /// or a February 30 over into the next hour or month, and stops the process on an offset
    /// beyond 18 hours.
    public static func milliseconds(_ text: String) -> Int64? {
        guard let match = text.wholeMatch(of: shape),
              let year = Int64(match.1), let month = Int64(match.2), let day = Int64(match.3),
              let hour = Int64(match.4), let minute = Int64(match.5), let second = Int64(match.6),
              (1...12).contains(month), (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second),
              (1...daysIn(month: month, year: year)).contains(day)
        else { return nil }
        var offsetMinutes: Int64 = 0
        if let hours = match.9.flatMap({ Int64($0) }), let minutes = match.10.flatMap({ Int64($0) }) {
            guard (0...23).contains(hours), (0...59).contains(minutes) else { return nil }
            offsetMinutes = (hours * 60 + minutes) * (match.8.hasPrefix("-") ? -1 : 1)
        }
        let minuteStart = ((daysSince1970(year: year, month: month, day: day) * 24 + hour) * 60 + minute - offsetMinutes) * 60_000
        let withinMinute = second == 60 ? 59_999 : second * 1000 + fractionMilliseconds(match.7)
        let milliseconds = minuteStart + withinMinute
        return (earliest...latest).contains(milliseconds) ? milliseconds : nil
    }

    private static var shape: Regex<(Substring, Substring, Substring, Substring, Substring, Substring, Substring, Substring?, Substring, Substring?, Substring?)> { /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-](\d{2}):(\d{2}))$/ }

    /// `.d…` as milliseconds, rounded half up (a fraction that rounds to 1,000 carries).
    private static func fractionMilliseconds(_ fraction: Substring?) -> Int64 {
        guard let digits = fraction?.dropFirst() else { return 0 }
        let padded = Array((digits + "000").prefix(4))
        let whole = Int64(String(padded.prefix(3))) ?? 0
        return padded[3] >= "5" ? whole + 1 : whole
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        return [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][Int(month - 1)]
    }

    /// Days from 1970-01-01 to the date in the proleptic Gregorian calendar (Howard Hinnant's
    /// days-from-civil).
    private static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = shiftedYear / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The first time the wire carries: 2000-01-01T00:00:00.000Z.
    public static let earliest: Int64 = 946_684_800_000

    /// The last time the wire can carry: 9999-12-31T23:59:59.999Z.
    public static let latest: Int64 = 253_402_300_799_999

    public static func now(_ date: Date = Date()) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }
}
