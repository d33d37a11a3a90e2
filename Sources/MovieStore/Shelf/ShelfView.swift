import MovieContract

/// One kind of a person's shelf as this machine sees it: the server's last known records with
/// this machine's pending changes laid over them, newest change first.
public struct ShelfView<Kind: ShelfKind>: Sendable {
    /// One record as shown.
    public struct Line: Sendable {
        public var key: String
        public var value: Kind.Value
        public var changedAt: Int64
        /// The movie's title and year as the server's list gave them, when it did.
        public var title: String?
        public var year: Int?
        /// Whether a change made here that sets it is still to reach the server.
        public var isPending: Bool
    }

    public var lines: [Line]
    /// How many changes wait to be sent.
    public var pendingCount: Int
    /// Keys whose record a pending change removes.
    public var pendingRemovals: Set<String>

    /// The line of `key`, when it is in force.
    public func line(_ key: String) -> Line? {
        lines.first { $0.key == key }
    }
}
