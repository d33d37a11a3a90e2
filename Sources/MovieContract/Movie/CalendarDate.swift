import Foundation

/// Converts between a `yyyy-MM-dd` calendar date and the `Date` at midnight UTC of that day.
///
/// Strict on input: four-digit year, two-digit month and day, and a day that exists
/// (`2016-02-30` is rejected). Dates are proleptic Gregorian, as ISO 8601 has them, and the
/// arithmetic is done directly on day numbers: no calendar object, locale or time zone.
public enum CalendarDate {
    private static let secondsPerDay = 86_400.0

    /// The instants, in seconds since 1970, that a stored or received time may be: from 1970 to
    /// the end of the year 9999, so that later arithmetic and formatting cannot overflow.
    public static let plausibleSeconds: ClosedRange<Double> = 0...253_402_300_799

    /// The date at midnight UTC of `text`, or `nil` when `text` is not a real `yyyy-MM-dd` day.
    public static func date(from text: String) -> Date? {
        date(utf8: text.utf8)
    }

    /// The date at midnight UTC of the `yyyy-MM-dd` day spelled by `utf8`, or `nil` when it is not a real one.
    public static func date(utf8: some Sequence<UInt8>) -> Date? {
        var bytes = utf8.makeIterator()
        var fields = (year: 0, month: 0, day: 0)
        for position in 0..<10 {
            guard let byte = bytes.next() else { return nil }
            if position == 4 || position == 7 {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            let digit = Int(byte - UInt8(ascii: "0"))
            switch position {
            case 0..<4: fields.year = fields.year * 10 + digit
            case 5..<7: fields.month = fields.month * 10 + digit
            default: fields.day = fields.day * 10 + digit
            }
        }
        guard bytes.next() == nil else { return nil }
        let (year, month, day) = fields
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day) else { return nil }
        return Date(timeIntervalSince1970: Double(daysSince1970(year: year, month: month, day: day)) * secondsPerDay)
    }

    /// The `yyyy-MM-dd` text of the UTC calendar day that contains `date`.
    public static func string(from date: Date) -> String {
        let days = Int((date.timeIntervalSince1970 / secondsPerDay).rounded(.down))
        let (year, month, day) = civil(daysSince1970: days)
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the given day (H. Hinnant's days-from-civil).
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The day `days` after 1970-01-01 (H. Hinnant's civil-from-days).
    static func civil(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
