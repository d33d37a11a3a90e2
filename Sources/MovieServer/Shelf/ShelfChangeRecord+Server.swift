import Crypto
import Foundation
import MovieContract

extension ShelfChangeRecord: SyncedChange {
    /// The entry this change makes when it wins.
    package var record: ShelfEntry {
        ShelfEntry(key: key, value: value ?? "", version: version, removed: isRemoval)
    }

    /// What the change says, hashed: a repeat of it has the same, another change under its id not.
    package var fingerprint: [UInt8] {
        let text = [kind, key, value ?? "\u{0}", String(changedAt), device].joined(separator: "\u{1F}")
        return Array(SHA256.hash(data: Data(text.utf8)))
    }
}
