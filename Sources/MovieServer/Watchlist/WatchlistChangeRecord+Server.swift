import Crypto
import Foundation
import MovieContract

/// What the server needs of a change beyond what the client sends: the version it is ordered by,
/// the entry it makes when it wins, and its fingerprint, which tells a repeat of the change from
/// another change sent under the same id.
extension WatchlistChangeRecord {
    /// A change as a write request states it; a removal keeps no note.
    package init(id: String, movieID: Int, action: Action, note: String = "", version: WatchlistVersion) {
        self.init(id: id, movieID: movieID, action: action, note: action == .add ? note : "", changedAt: version.changedAt, device: version.device)
    }

    /// The entry this change makes when it wins.
    package var entry: WatchlistEntry {
        WatchlistEntry(movieID: movieID, note: note, version: version, removed: action == .remove)
    }

    /// What the change says, hashed.
    package var fingerprint: [UInt8] {
        let text = [String(movieID), action.rawValue, note, String(changedAt), device].joined(separator: "\u{1F}")
        return Array(SHA256.hash(data: Data(text.utf8)))
    }
}

extension WatchlistChangeRecord: SyncedChange {
    package var key: Int { movieID }
    package var record: WatchlistEntry { entry }
}

extension WatchlistEntry: SyncedRecord {
    package var key: Int { movieID }
}
