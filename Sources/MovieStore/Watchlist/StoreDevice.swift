import Foundation
import GRDB

/// The one row of `storeDevice`: this store's own random id, sent with each change, which
/// settles ties between devices. Made at the store's first change.
struct StoreDevice: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "storeDevice"

    var id = 1
    var device: String

    /// The store's device id, made and saved when there is none yet.
    static func current(in db: Database) throws -> String {
        if let stored = try fetchOne(db) { return stored.device }
        let made = StoreDevice(device: UUID().uuidString.lowercased())
        try made.insert(db)
        return made.device
    }
}
