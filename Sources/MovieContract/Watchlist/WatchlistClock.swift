import Foundation

/// The watchlist's times: milliseconds since 1970 in UTC, written on the wire as RFC 3339 with
/// milliseconds (`2026-11-24T09:30:00.250Z`).
public enum WatchlistClock {
    /// Written by hand, digit by digit, from the milliseconds: no formatter (a `Double` would cut
    /// …40.001 to …40.000, and a formatter costs more than the rest of a list's answer).
    public static func string(_ milliseconds: Int64) -> String {
        let (days, withinDay) = floorDivision(milliseconds, 86_400_000)
        let (year, month, day) = civil(daysSince1970: days)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        func digits(_ value: Int64, _ width: Int) {
            var divisor: Int64 = 1
            for _ in 1..<width { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor))
                rest %= divisor
                divisor /= 10
            }
        }
        // A year past 9999 (never a change's: times are kept to ``latest``) is written whole.
        if (0...9999).contains(year) { digits(year, 4) } else { bytes += Array(String(year).utf8) }
        bytes.append(UInt8(ascii: "-")); digits(month, 2); bytes.append(UInt8(ascii: "-")); digits(day, 2)
        bytes.append(UInt8(ascii: "T"))
        digits(withinDay / 3_600_000, 2); bytes.append(UInt8(ascii: ":")); digits(withinDay / 60_000 % 60, 2); bytes.append(UInt8(ascii: ":"))
        digits(withinDay / 1000 % 60, 2); bytes.append(UInt8(ascii: ".")); digits(withinDay % 1000, 3); bytes.append(UInt8(ascii: "Z"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The milliseconds `text` names, or `nil` when it is not such a time or not from the year
    /// 2000 to 9999. Any RFC 3339 date-time is read: without fractions, with any offset to ±23:59,
    /// and with a leap second (`:60`), read as the last millisecond of its minute. Every field is
    /// checked and the time computed here, byte by byte, not by Foundation's parser, which rolls a
    /// minute of 99 or a February 30 over into the next hour or month, and stops the process on an
    /// offset beyond 18 hours.
    public static func milliseconds(_ text: String) -> Int64? {
        var reader = TimeReader(text.utf8)
        guard let year = reader.number(4), reader.skip("-"), let month = reader.number(2), reader.skip("-"), let day = reader.number(2),
              reader.skip("T") || reader.skip("t"), let hour = reader.number(2), reader.skip(":"), let minute = reader.number(2), reader.skip(":"),
              let second = reader.number(2),
              (1...12).contains(month), (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second),
              (1...daysIn(month: month, year: year)).contains(day)
        else { return nil }
        var fraction: Int64 = 0
        if reader.skip(".") {
            guard let read = reader.fraction() else { return nil }
            fraction = read
        }
        var offsetMinutes: Int64 = 0
        if reader.skip("Z") || reader.skip("z") {
        } else if let sign: Int64 = reader.skip("+") ? 1 : (reader.skip("-") ? -1 : nil) {
            guard let hours = reader.number(2), reader.skip(":"), let minutes = reader.number(2), (0...23).contains(hours), (0...59).contains(minutes) else { return nil }
            offsetMinutes = (hours * 60 + minutes) * sign
        } else {
            return nil
        }
        guard reader.isAtEnd else { return nil }
        let minuteStart = ((daysSince1970(year: year, month: month, day: day) * 24 + hour) * 60 + minute - offsetMinutes) * 60_000
        let withinMinute = second == 60 ? 59_999 : second * 1000 + fraction
        let milliseconds = minuteStart + withinMinute
        return (earliest...latest).contains(milliseconds) ? milliseconds : nil
    }

    /// Reads a time's fields from its bytes.
    private struct TimeReader {
        var bytes: String.UTF8View
        var index: String.UTF8View.Index

        init(_ bytes: String.UTF8View) {
            self.bytes = bytes
            index = bytes.startIndex
        }

        var isAtEnd: Bool { index == bytes.endIndex }

        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard index != bytes.endIndex, bytes[index] == UInt8(ascii: character) else { return false }
            bytes.formIndex(after: &index)
            return true
        }

        /// Exactly `count` digits, as a number.
        mutating func number(_ count: Int) -> Int64? {
            var value: Int64 = 0
            for _ in 0..<count {
                guard index != bytes.endIndex, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else { return nil }
                value = value * 10 + Int64(bytes[index] - UInt8(ascii: "0"))
                bytes.formIndex(after: &index)
            }
            return value
        }

        /// One to nine digits after the point, as milliseconds rounded half up (a fraction that
        /// rounds to 1,000 carries).
        mutating func fraction() -> Int64? {
            var digits: [Int64] = []
            while index != bytes.endIndex, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                digits.append(Int64(bytes[index] - UInt8(ascii: "0")))
                bytes.formIndex(after: &index)
            }
            guard (1...9).contains(digits.count) else { return nil }
            let padded = digits + [0, 0, 0]
            let whole = padded[0] * 100 + padded[1] * 10 + padded[2]
            return padded[3] >= 5 ? whole + 1 : whole
        }
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let (quotient, remainder) = value.quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }

    /// The date of a day counted from 1970-01-01, as ``CalendarDate`` finds it.
    private static func civil(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let (year, month, day) = CalendarDate.civil(daysSince1970: Int(days))
        return (Int64(year), Int64(month), Int64(day))
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
