import Logging

/// Where a database keeps its search index's snapshot (``SearchIndexSnapshot``): one for the
/// catalogue version it was made from, which an import that changes the catalogue deletes.
package struct SearchIndexSnapshotStore: Sendable {
    /// The stored snapshot's bytes, if one holds the version the catalogue holds now.
    package var read: @Sendable () async throws -> (version: Int64, bytes: [UInt8])?
    /// Keeps `bytes` as version `version`'s snapshot, unless the catalogue has moved on from it.
    package var write: @Sendable (_ bytes: [UInt8], _ version: Int64) async throws -> Void
    /// Deletes version `version`'s snapshot, one that could not be read, so that a good one takes its place.
    package var discard: @Sendable (_ version: Int64) async throws -> Void

    package init(
        read: @escaping @Sendable () async throws -> (version: Int64, bytes: [UInt8])?,
        write: @escaping @Sendable (_ bytes: [UInt8], _ version: Int64) async throws -> Void,
        discard: @escaping @Sendable (_ version: Int64) async throws -> Void
    ) {
        self.read = read
        self.write = write
        self.discard = discard
    }
}

extension SearchIndexKeeper {
    /// Reads the stored snapshot of the current catalogue, if there is one, as the index; true when
    /// that gave an index. A snapshot that cannot be read is logged, deleted, and the index is made
    /// again (and stored in its place).
    func readSnapshot(started: ContinuousClock.Instant) async -> Bool {
        guard let snapshots else { return false }
        let reading = Task<Void, Never> { [self] in
            do {
                guard let stored = try await snapshots.read() else { return }
                let index: MemorySearchIndex
                do {
                    index = try MemorySearchIndex(snapshot: stored.bytes)
                } catch {
                    try await snapshots.discard(stored.version)
                    throw error
                }
                FreedMemory.returnToSystem()
                adopt(index, version: stored.version)
                logger.info("search index ready", metadata: [
                    "movies": "\(index.count)", "catalog_version": "\(stored.version)",
                    "took": "\((ContinuousClock.now - started).secondsText)", "from": "its stored snapshot",
                    "size": "\(index.byteCount / 1_000_000) MB",
                ])
            } catch {
                logger.warning("the stored search index was not read; it is made from the catalogue", metadata: ["reason": "\(error)"])
            }
        }
        beginReading(reading)
        await reading.value
        return endReading()
    }

    /// Stores a made index as its version's snapshot; a failure only costs the next start its time.
    func storeSnapshot(of index: MemorySearchIndex, version: Int64) async {
        guard let snapshots else { return }
        do {
            try await snapshots.write(index.snapshot(), version)
            FreedMemory.returnToSystem()
        } catch {
            logger.warning("the search index was not stored; the next start makes it again", metadata: ["reason": "\(error)"])
        }
    }
}
