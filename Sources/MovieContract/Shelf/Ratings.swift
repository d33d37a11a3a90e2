/// A person's rating of a movie, 1 to 10, one per movie. Half-star scales (Letterboxd's 0.5–5)
/// are the same scale halved: 7 is three and a half stars.
public enum Ratings: ShelfKind {
    public struct Value: Codable, Hashable, Sendable {
        public var score: Int

        public init(score: Int) {
            self.score = score
        }
    }

    public static let name = "ratings"

    public static func value(of object: FlatJSONObject) -> Value? {
        object.integer("score").map(Value.init(score:))
    }
    public static let recordsNoun = "ratings"
    /// The scores a rating may have.
    public static let scores = 1...10

    public static func problem(withKey key: String) -> String? {
        movieID(key) == nil ? "a rating is kept under its movie's id, a positive whole number written without leading zeros, not '\(key.prefix(40))'" : nil
    }

    public static func problem(with value: Value, key: String) -> String? {
        scores.contains(value.score) ? nil : "a score is a whole number from 1 to 10, not \(value.score)"
    }

    public static func movieID(key: String, value: Value) -> Int? {
        movieID(key)
    }

    public static func movieID(key: String) -> Int? {
        movieID(key)
    }

    /// "7/10 (★★★½)": a score, and the same as half-stars out of five.
    public static func text(_ score: Int) -> String {
        "\(score)/10 (" + String(repeating: "★", count: max(0, score) / 2) + (score % 2 == 1 ? "½" : "") + ")"
    }

    /// The movie id a rating's key names: a positive whole number written as it is (`6`, not `06`),
    /// so that one movie has one key.
    public static func movieID(_ key: String) -> Int? {
        guard key.utf8.count <= 18, key.utf8.allSatisfy({ (48...57).contains($0) }), let id = Int(key), id > 0, String(id) == key else { return nil }
        return id
    }
}
