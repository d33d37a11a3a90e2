import Foundation

/// A kind of record a person keeps on their shelf beside the watchlist (ratings, and the diary
/// and lists after them). Every kind travels the one sync engine the same way: changes keyed by a
/// text key, each with a version (time and device), the greater version winning, a removal kept as
/// a tombstone. A kind says only what its key and value are and which values it keeps; the
/// engine, the tables and the routes are the same for all of them.
public protocol ShelfKind: Sendable {
    /// What one record holds, as it travels in JSON.
    associatedtype Value: Codable & Hashable & Sendable

    /// The kind's name: its resource under `/api/` and the kind its rows carry in every table.
    static var name: String { get }

    /// Why `key` names no record of this kind, or nil when it does.
    static func problem(withKey key: String) -> String?

    /// Why `value` cannot be kept under `key`, or nil when it can.
    static func problem(with value: Value, key: String) -> String?

    /// The movie a record is about, which the catalogue must hold for a change to be taken; nil
    /// for a record about no movie (a list).
    static func movieID(key: String, value: Value) -> Int?

    /// The movie a key names, for a kind whose keys name their movie (a rating, a list's movie): a
    /// removal is then held to the catalogue too. nil for a kind whose keys do not.
    static func movieID(key: String) -> Int?

    /// What a person calls the records, in a sentence ("diary entries").
    static var recordsNoun: String { get }

    /// How many records (removed ones included) one person may keep of the kind; nil for a kind
    /// bounded otherwise (by the catalogue, or by its groups).
    static var recordLimit: Int? { get }

    /// How many records in force one group may hold (a list's items), a group being the part of
    /// a key before its first `/` (``ShelfKeys/group(of:)``); nil for a kind not counted.
    static var groupLimit: Int? { get }

    /// The kind whose record in force each group must be (a list's movies are kept only on a list
    /// that exists): a change that sets a record of a group without one is `unknownList`. nil for
    /// a kind whose groups need none.
    static var groupParent: String? { get }

    /// The value a one-level JSON object holds, read without `JSONDecoder`; nil when it holds
    /// none of this kind's, or for a kind that does not read them so (``value(ofText:)`` then
    /// decodes). It must give what decoding gives for every object both accept.
    static func value(of object: FlatJSONObject) -> Value?
}

extension ShelfKind {
    public static var groupLimit: Int? { nil }
    public static var groupParent: String? { nil }
    public static var recordLimit: Int? { nil }
    public static func movieID(key: String) -> Int? { nil }
    public static func value(of object: FlatJSONObject) -> Value? { nil }

    /// `value` as the engine keeps it: compact JSON, keys sorted, so that the same value is the
    /// same text on every device and server (a change's fingerprint is taken over it).
    public static func text(of value: Value) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// ``text(of:)`` of each of `values`, with one encoder.
    public static func texts(of values: [Value]) -> [String] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return values.map { value in (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}" }
    }

    /// The values kept as `texts`, read as one JSON array (one parse for a whole list); each nil
    /// that is not one of this kind's.
    public static func values(ofTexts texts: [String]) -> [Value?] {
        guard !texts.isEmpty else { return [] }
        var read: [Value?] = []
        read.reserveCapacity(texts.count)
        for text in texts {
            guard let object = FlatJSONObject(text), let value = value(of: object) else { break }
            read.append(value)
        }
        if read.count == texts.count { return read }
        if let all = try? JSONDecoder().decode([Value].self, from: Data(("[" + texts.joined(separator: ",") + "]").utf8)), all.count == texts.count {
            return all
        }
        return texts.map(value(ofText:))
    }

    /// The value kept as `text`, or nil when it is not one of this kind's.
    public static func value(ofText text: String) -> Value? {
        if let object = FlatJSONObject(text), let value = value(of: object) { return value }
        return try? JSONDecoder().decode(Value.self, from: Data(text.utf8))
    }
}
