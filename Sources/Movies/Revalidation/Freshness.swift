/// What a server said about keeping one of its answers: the validator to ask with next time,
/// how long the answer may be used without asking, and whether it may be kept at all.
public struct Freshness: Sendable, Hashable {
    /// The answer's entity tag, sent back in `If-None-Match`; `nil` when the server gave none.
    public var entityTag: String?
    /// How long the answer stays fresh; `nil` when the server did not say.
    public var maxAge: Duration?
    /// `false` when the server forbade storing the answer (`Cache-Control: no-store`).
    public var mayStore: Bool

    /// The longest an answer is kept fresh, whatever its server said: a year.
    public static let longestMaxAge: Duration = .seconds(31_536_000)

    /// `maxAge` is cut to ``longestMaxAge``.
    public init(entityTag: String? = nil, maxAge: Duration? = nil, mayStore: Bool = true) {
        self.entityTag = entityTag
        self.maxAge = maxAge.map { min($0, Self.longestMaxAge) }
        self.mayStore = mayStore
    }

    /// An answer the server said nothing about.
    public static let unknown = Freshness()
}
