import Foundation

/// The calendar day on this machine's clock and time zone, as `yyyy-MM-dd`: the day a person
/// means by "today".
enum LocalDay {
    static func today(_ now: Date = Date()) -> String {
        let parts = Calendar.current.dateComponents([.year, .month, .day], from: now)
        return String(format: "%04d-%02d-%02d", parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1)
    }
}
