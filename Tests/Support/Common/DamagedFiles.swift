import Foundation

/// Damages a SQLite database file the way a disk fault would: the 100-byte header stays, the
/// rest of the first page (the schema) becomes noise. SQLite still sees a database, but cannot
/// read it.
public func damageDatabase(at url: URL) throws {
    let handle = try FileHandle(forWritingTo: url)
    try handle.seek(toOffset: 100)
    try handle.write(contentsOf: Data((0..<3996).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }))
    try handle.close()
    for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
}
