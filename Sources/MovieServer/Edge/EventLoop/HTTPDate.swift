import Foundation

/// The `Date` header value (RFC 9110, 5.6.7), formatted again only when the second changes.
/// One per connection, so that no lock is taken per request.
struct HTTPDate {
    private var second = -1
    private var text = ""

    mutating func now() -> String {
        var clock = timespec()
        clock_gettime(Self.clock, &clock)
        if clock.tv_sec != second {
            second = clock.tv_sec
            text = Self.format(second)
        }
        return text
    }

    /// The coarse clock where there is one (Linux: read without a system call, to the tick); a
    /// header that names the second needs no more.
    #if os(Linux)
    private static let clock = CLOCK_REALTIME_COARSE
    #else
    private static let clock = CLOCK_REALTIME
    #endif

    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func format(_ secondsSince1970: Int) -> String {
        var time = time_t(secondsSince1970)
        var parts = tm()
        gmtime_r(&time, &parts)
        func twoDigits(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(Self.days[Int(parts.tm_wday)]), \(twoDigits(parts.tm_mday)) \(Self.months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(twoDigits(parts.tm_hour)):\(twoDigits(parts.tm_min)):\(twoDigits(parts.tm_sec)) GMT"
    }
}
