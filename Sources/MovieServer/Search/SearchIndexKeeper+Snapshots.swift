import Logging
import NIOConcurrencyHelpers

/// Where a database keeps its search index's snapshot (``SearchIndexSnapshot``): one for the
/// catalogue version it was made from, which an import that changes the catalogue deletes.
package struct SearchIndexSnapshotStore: Sendable {
    /// The stored snapshot's bytes, if one holds the version the catalogue holds now.
    package var read: @Sendable () async throws -> (version: Int64, bytes: SnapshotBytes)?
    /// Keeps `bytes` as version `version`'s snapshot, unless the catalogue has moved on from it.
    package var write: @Sendable (_ bytes: [UInt8], _ version: Int64) async throws -> Void
    /// Deletes version `version`'s snapshot, one that could not be read, so that a good one takes its place.
    package var discard: @Sendable (_ version: Int64) async throws -> Void

    package init(
        read: @escaping @Sendable () async throws -> (version: Int64, bytes: SnapshotBytes)?,
        write: @escaping @Sendable (_ bytes: [UInt8], _ version: Int64) async throws -> Void,
        discard: @escaping @Sendable (_ version: Int64) async throws -> Void
    ) {
        self.read = read
        self.write = write
        self.discard = discard
    }
}

extension SearchIndexSnapshotStore {
    /// The same store, each failed call logged and counted in `failures` as the backend's other
    /// database calls are (`search_index_snapshot_read`, `…_write`, `…_discard`), `reason` saying
    /// what went wrong.
    package func counted(in failures: StorageFailures, reason: @escaping @Sendable (any Error) -> String) -> SearchIndexSnapshotStore {
        let (read, write, discard) = (read, write, discard)
        @Sendable func counting<T>(_ method: String, _ call: () async throws -> T) async throws -> T {
            do {
                return try await call()
            } catch {
                failures.record(.queryFailed(reason(error)), in: method)
                throw error
            }
        }
        return SearchIndexSnapshotStore(
            read: { try await counting("searchIndexSnapshotRead") { try await read() } },
            write: { bytes, version in try await counting("searchIndexSnapshotWrite") { try await write(bytes, version) } },
            discard: { version in try await counting("searchIndexSnapshotDiscard") { try await discard(version) } }
        )
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
                guard let (version, index) = try await readIndex(from: snapshots) else { return }
                adopt(index, version: version)
                logger.info("search index ready", metadata: [
                    "movies": "\(index.count)", "catalog_version": "\(version)",
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

    /// The stored snapshot's index and version, decoded on a thread of its own, which frees its
    /// bytes too before the memory is given back; one that cannot be read is deleted.
    private func readIndex(from snapshots: SearchIndexSnapshotStore) async throws -> (Int64, MemorySearchIndex)? {
        guard let stored = try await snapshots.read() else { return nil }
        let (version, box) = stored
        let decoded = await OwnThread.run { () -> Result<MemorySearchIndex, SearchIndexSnapshot.Unreadable> in
            var bytes = box.take()
            defer {
                bytes = []
                FreedMemory.returnToSystem()
            }
            do throws(SearchIndexSnapshot.Unreadable) {
                return .success(try MemorySearchIndex(snapshot: bytes))
            } catch {
                return .failure(error)
            }
        }
        switch decoded {
        case let .success(index):
            return (version, index)
        case let .failure(error):
            try await snapshots.discard(version)
            throw error
        }
    }

    /// Stores a made index as its version's snapshot (encoded on a thread of its own); a failure
    /// only costs the next start its time.
    func storeSnapshot(of index: MemorySearchIndex, version: Int64) async {
        guard let snapshots else { return }
        do {
            try await snapshots.write(await OwnThread.run { index.snapshot() }, version)
            FreedMemory.returnToSystem()
        } catch {
            logger.warning("the search index was not stored; the next start makes it again", metadata: ["reason": "\(error)"])
        }
    }
}

/// A snapshot's bytes as a database read them, handed on to the thread that decodes them so that
/// it is the one to free them (a hundred and sixty megabytes for a million movies).
package final class SnapshotBytes: Sendable {
    private let bytes: NIOLockedValueBox<[UInt8]>

    package init(_ bytes: [UInt8]) {
        self.bytes = NIOLockedValueBox(bytes)
    }

    func take() -> [UInt8] {
        bytes.withLockedValue { bytes in
            defer { bytes = [] }
            return bytes
        }
    }
}
