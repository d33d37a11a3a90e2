/// A change of any kind of record a person keeps (a watchlist entry, and the shelf's other kinds
/// after it), as the one sync engine decides it: what it is keyed by, the record it makes when it
/// wins, the version it is ordered by, and its fingerprint, which tells a repeat of the change from
/// another change sent under the same id.
package protocol SyncedChange: Sendable {
    associatedtype Key: Hashable & Comparable & Sendable
    associatedtype Record: SyncedRecord where Record.Key == Key

    var id: String { get }
    var key: Key { get }
    var changedAt: Int64 { get }
    var device: String { get }
    var fingerprint: [UInt8] { get }
    /// The record this change makes when it wins (a tombstone for a removal).
    var record: Record { get }
    /// The same change, ordered as made at `changedAt`.
    func ordered(at changedAt: Int64) -> Self
}

extension SyncedChange {
    package var version: WatchlistVersion { WatchlistVersion(changedAt: changedAt, device: device) }
}

/// A record as storage keeps it: its key, its version, and whether it is a tombstone.
package protocol SyncedRecord: Sendable, Hashable {
    associatedtype Key: Hashable & Comparable & Sendable
    var key: Key { get }
    var version: WatchlistVersion { get }
}
