import Foundation

/// Reads a `Retry-After` header: delay-seconds or an HTTP date (RFC 9110, section 10.2.3).
enum RetryAfter {
    /// Digits too many for a number: a wait longer than any cap.
    private static let longest = Int64(Int32.max)

    /// How long to wait, or `nil` when the value is neither form. A date in the past is no wait;
    /// digits are always seconds, never read as a date.
    static func delay(_ value: String, now: Date) -> Duration? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            return .seconds(Int64(text) ?? longest)
        }
        guard let date = httpDate(text) else { return nil }
        return .seconds(max(0, date.timeIntervalSince(now)))
    }

    /// The three date formats HTTP allows: IMF-fixdate, obsolete RFC 850, and asctime.
    private static func httpDate(_ text: String) -> Date? {
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
