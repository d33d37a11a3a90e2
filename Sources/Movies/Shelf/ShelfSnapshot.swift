/// One kind of a person's shelf as its server sent it: the records in force, with their movies'
/// titles, and the keys removed, each with when.
public struct ShelfSnapshot: Sendable, Hashable {
    /// A record in force: its value as the kind's compact JSON.
    public struct Record: Sendable, Hashable {
        public var key: String
        public var value: String
        public var changedAt: Int64
        public var title: String?
        public var year: Int?

        public init(key: String, value: String, changedAt: Int64, title: String? = nil, year: Int? = nil) {
            self.key = key
            self.value = value
            self.changedAt = changedAt
            self.title = title
            self.year = year
        }
    }

    public var records: [Record]
    /// When each removed key was removed.
    public var removals: [String: Int64]
    /// The live feed's position the server read the records at.
    public var feedPosition: Int64?

    public init(records: [Record], removals: [String: Int64], feedPosition: Int64? = nil) {
        self.records = records
        self.removals = removals
        self.feedPosition = feedPosition
    }
}
