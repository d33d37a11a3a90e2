import Foundation

/// A person's own lists: each named and described, its items (``ListItems``) kept apart so that
/// two devices changing one list's items change different records.
public enum Lists: ShelfKind {
    public struct Value: Codable, Hashable, Sendable {
        public var name: String
        public var description: String

        public init(name: String, description: String) {
            self.name = name
            self.description = description
        }
    }

    public static let name = "lists"

    public static func value(of object: FlatJSONObject) -> Value? {
        guard let name = object.string("name"), let description = object.string("description") else { return nil }
        return Value(name: name, description: description)
    }
    public static let recordsNoun = "lists"
    /// The most lists one person keeps (removed ones included).
    public static var recordLimit: Int? { 1_000 }
    /// The most code points a list's name holds.
    public static let nameLength = 100

    public static func problem(withKey key: String) -> String? {
        Diary.problem(withKey: key).map { _ in "a list's id is 1 to 64 letters, digits or dashes" }
    }

    public static func problem(with value: Value, key: String) -> String? {
        if let problem = nameProblem(value.name) { return problem }
        return WatchlistNote.problem(with: value.description).map { $0.replacingOccurrences(of: "a note", with: "a description") }
    }

    /// Why `name` cannot be a list's name, or nil.
    public static func nameProblem(_ name: String) -> String? {
        var length = 0
        var visible = false
        for scalar in name.unicodeScalars {
            length += 1
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) { return "a list's name cannot hold control characters" }
            if invisible.contains(scalar.value) { return "a list's name cannot hold invisible or direction-changing characters (U+\(String(scalar.value, radix: 16, uppercase: true)))" }
            if !scalar.properties.isWhitespace { visible = true }
        }
        if !visible { return "a list's name cannot be empty" }
        if length > nameLength { return "a list's name holds at most \(nameLength) characters, not \(length)" }
        return nil
    }

    public static func movieID(key: String, value: Value) -> Int? { nil }

    /// Zero-width characters and the direction controls: a name made of them looks empty, or
    /// reads otherwise than it is.
    static let invisible: [ClosedRange<UInt32>] = [0x200B...0x200F, 0x202A...0x202E, 0x2060...0x2064, 0x2066...0x2069, 0xFEFF...0xFEFF]
}

extension [ClosedRange<UInt32>] {
    func contains(_ value: UInt32) -> Bool { contains { $0.contains(value) } }
}

/// The movies of a person's lists, keyed `list/movie`: one record per movie of a list, with its
/// place (a ``FractionalPosition``) and a note. Two devices that move items of one list offline
/// end with the same order: each item's position is its own record, the later change winning,
/// and items at one position are ordered by movie id.
public enum ListItems: ShelfKind {
    public struct Value: Codable, Hashable, Sendable {
        public var position: String
        public var note: String

        public init(position: String, note: String) {
            self.position = position
            self.note = note
        }
    }

    public static let name = "listItems"
    public static var groupParent: String? { Lists.name }

    public static func value(of object: FlatJSONObject) -> Value? {
        guard let position = object.string("position"), let note = object.string("note") else { return nil }
        return Value(position: position, note: note)
    }
    public static let recordsNoun = "movies on lists"
    /// The most items a list holds.
    public static let itemLimit = 100_000
    public static var groupLimit: Int? { itemLimit }
    /// The most list movies one person keeps (removed ones included), over all their lists.
    public static var recordLimit: Int? { 1_000_000 }

    public static func key(list: String, movieID: Int) -> String { "\(list)/\(movieID)" }

    public static func problem(withKey key: String) -> String? {
        guard let (list, movie) = parts(key), Lists.problem(withKey: list) == nil, Ratings.movieID(movie) != nil else {
            return "a list item is keyed LIST/MOVIE, a list's id and a movie's id, not '\(key.prefix(80))'"
        }
        return nil
    }

    public static func problem(with value: Value, key: String) -> String? {
        if let problem = FractionalPosition.problem(with: value.position) { return problem }
        return WatchlistNote.problem(with: value.note)
    }

    public static func movieID(key: String, value: Value) -> Int? {
        movieID(key: key)
    }

    public static func movieID(key: String) -> Int? {
        parts(key).flatMap { Ratings.movieID($0.movie) }
    }

    /// The list's id and the movie's of `key`.
    public static func parts(_ key: String) -> (list: String, movie: String)? {
        guard let slash = key.firstIndex(of: "/") else { return nil }
        return (String(key[..<slash]), String(key[key.index(after: slash)...]))
    }
}
