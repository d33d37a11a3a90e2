/// One change to a record of a person's shelf, as a device makes it and the server takes it: the
/// engine's unit for every ``ShelfKind``. Its id is the device's own, so that a change sent twice
/// is applied once; a removal has no value.
public struct ShelfChangeRecord: Sendable, Hashable, Codable {
    public var id: String
    /// The kind's ``ShelfKind/name``.
    public var kind: String
    public var key: String
    /// The record's value as the kind's compact JSON (``ShelfKind/text(of:)``); nil for a removal.
    public var value: String?
    /// Milliseconds since 1970, UTC, on the device's clock.
    public var changedAt: Int64
    public var device: String

    public init(id: String, kind: String, key: String, value: String?, changedAt: Int64, device: String) {
        self.id = id
        self.kind = kind
        self.key = key
        self.value = value
        self.changedAt = changedAt
        self.device = device
    }

    public var isRemoval: Bool { value == nil }

    /// The same change, ordered as made at `time`.
    public func ordered(at time: Int64) -> ShelfChangeRecord {
        var change = self
        change.changedAt = time
        return change
    }
}
