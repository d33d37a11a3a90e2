import Foundation

/// A person's diary: each viewing of a movie, with the day it was watched, whether it was a
/// rewatch, and a note. A movie may be logged any number of times; each entry has an id of its
/// own, made by the device that logs it.
public enum Diary: ShelfKind {
    public struct Value: Codable, Hashable, Sendable {
        public var movieId: Int
        /// The day watched, `yyyy-MM-dd`.
        public var watchedOn: String
        public var rewatch: Bool
        public var note: String

        public init(movieId: Int, watchedOn: String, rewatch: Bool, note: String) {
            self.movieId = movieId
            self.watchedOn = watchedOn
            self.rewatch = rewatch
            self.note = note
        }
    }

    public static let name = "diary"

    public static func value(of object: FlatJSONObject) -> Value? {
        guard let movieId = object.integer("movieId"), let watchedOn = object.string("watchedOn"), let rewatch = object.bool("rewatch"),
              let note = object.string("note") else { return nil }
        return Value(movieId: movieId, watchedOn: watchedOn, rewatch: rewatch, note: note)
    }
    public static let recordsNoun = "diary entries"
    /// The most entries one person keeps (removed ones included): thirty years of a film a day, ten times over.
    public static var recordLimit: Int? { 100_000 }
    /// The first day a viewing may have: the year the first motion pictures were made.
    public static let firstDay = "1888-01-01"
    /// How far past the server's day a viewing may be dated: a person's day starts earlier in
    /// some time zones.
    public static let daysAhead = 1

    public static func problem(withKey key: String) -> String? {
        let valid = (1...64).contains(key.utf8.count) && key.utf8.allSatisfy { byte in
            (48...57).contains(byte) || (97...122).contains(byte) || (65...90).contains(byte) || byte == UInt8(ascii: "-")
        }
        return valid ? nil : "a diary entry's id is 1 to 64 letters, digits or dashes"
    }

    public static func problem(with value: Value, key: String) -> String? {
        problem(with: value, today: Date())
    }

    /// Why `value` cannot be kept on `today` (the day is checked against it), or nil.
    public static func problem(with value: Value, today: Date) -> String? {
        guard value.movieId > 0 else { return "a movie id is a positive whole number, not \(value.movieId)" }
        if let problem = dayProblem(value.watchedOn, today: today) { return problem }
        return WatchlistNote.problem(with: value.note)
    }

    /// Why `text` is not a day a viewing may have on `today`, or nil.
    public static func dayProblem(_ text: String, today: Date) -> String? {
        guard let day = CalendarDate.date(from: text) else {
            return "'\(text.prefix(40))' is not a date: write it as YYYY-MM-DD, such as 2026-11-24"
        }
        if text < firstDay { return "\(text) is before \(firstDay), when the first films were made" }
        let latest = today.addingTimeInterval(Double(daysAhead) * 86_400)
        if day > latest { return "\(text) is in the future: a diary logs what was watched" }
        return nil
    }

    public static func movieID(key: String, value: Value) -> Int? {
        value.movieId
    }
}
