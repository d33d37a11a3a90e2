/// One record of a person's shelf beyond the watchlist as the live feed brought it: its kind's
/// name, its key, and its value as the kind's compact JSON (nil for a removal).
public struct ShelfLiveChange: Sendable, Hashable {
    public var kind: String
    public var key: String
    public var value: String?
    public var changedAt: Int64

    public init(kind: String, key: String, value: String?, changedAt: Int64) {
        self.kind = kind
        self.key = key
        self.value = value
        self.changedAt = changedAt
    }
}
