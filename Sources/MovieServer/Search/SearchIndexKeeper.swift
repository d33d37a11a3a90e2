import Foundation
import Logging
import NIOConcurrencyHelpers

/// A database catalogue's search index (``MemorySearchIndex``), kept in this process for the
/// catalogue version it was made from.
///
/// A search asks it with the version the database holds now. An index of an older version answers
/// nothing: it is dropped, and a new one is read from the database's snapshot of the new version
/// (``SearchIndexSnapshot``; the searches wait the fraction of a second that takes) or, when there
/// is none, made in the background while the database's own search answers; the index made is
/// then stored as the version's snapshot. No page is ever read from a catalogue that has changed since.
package final class SearchIndexKeeper: Sendable {
    /// Reads every movie's search entry and the catalogue version they belong to.
    package typealias Load = @Sendable () async throws -> (version: Int64, entries: SearchEntries)

    private struct State {
        package var current: (version: Int64, index: MemorySearchIndex)?
        package var building: Task<Void, Never>?
        /// The read of a stored snapshot under way, which searches wait for.
        package var reading: Task<Void, Never>?
        package var failedAt: ContinuousClock.Instant?
        package var closed = false
    }

    private let state = NIOLockedValueBox(State())
    private let load: Load
    let snapshots: SearchIndexSnapshotStore?
    let logger: Logger
    /// How long a failed build waits before a search may start another: a database that is down
    /// must not be asked for every movie at each search.
    private let retryDelay: Duration
    /// How many indexes have been made, and searches answered, for the tests.
    private let counts = NIOLockedValueBox(SearchIndexCounts())

    package init(logger: Logger, retryDelay: Duration = .seconds(30), snapshots: SearchIndexSnapshotStore? = nil, load: @escaping Load) {
        self.load = load
        self.snapshots = snapshots
        self.logger = logger
        self.retryDelay = retryDelay
    }

    /// The hits of `search` from the index of catalogue `version`; `nil` when there is none yet
    /// (one is then begun).
    package func hits(_ search: MovieSearch, version: Int64) -> [IndexHit]? {
        guard let index = index(of: version) else { return nil }
        counts.withLockedValue { $0.answers += 1 }
        return index.search(search)
    }

    /// The index of catalogue `version`; `nil` when there is none yet (one is then begun).
    func index(of version: Int64) -> MemorySearchIndex? {
        let (index, isBehind): (MemorySearchIndex?, Bool) = state.withLockedValue { state in
            guard let current = state.current else { return (nil, true) }
            if current.version == version { return (current.index, false) }
            guard current.version < version else { return (nil, false) }
            state.current = nil
            return (nil, true)
        }
        if index == nil, isBehind { startBuilding() }
        return index
    }

    /// Begins making the index, unless there is one (a search of a newer version drops it), one is
    /// being made, a failed attempt was too recent, or the storage is closed.
    package func startBuilding() {
        state.withLockedValue { state in
            guard !state.closed, state.current == nil, state.building == nil else { return }
            if let failedAt = state.failedAt, ContinuousClock.now < failedAt.advanced(by: retryDelay) { return }
            state.building = Task { await self.build() }
        }
    }

    /// Waits while a stored snapshot is being read: it takes a fraction of a second, and the
    /// database's own search would take longer than that for some searches.
    package func snapshotRead() async {
        await state.withLockedValue { $0.reading }?.value
    }

    /// Makes the index if there is none (or waits for the one being made), and returns the version it holds.
    package func ready() async -> Int64? {
        startBuilding()
        let building = state.withLockedValue { $0.building }
        await building?.value
        return state.withLockedValue { $0.current?.version }
    }

    /// Whether an index was read or made since the keeper began (a later catalogue version's
    /// wait does not undo it).
    package var hasBeenReady: Bool { counts.withLockedValue { $0.builds + $0.snapshotReads > 0 } }

    /// How many indexes this keeper has made and how many searches they answered.
    package var statistics: SearchIndexCounts { counts.withLockedValue { $0 } }

    /// Stops the build under way, if any; no other begins.
    package func close() async {
        let building = state.withLockedValue { state in
            state.closed = true
            state.building?.cancel()
            return state.building
        }
        await building?.value
    }

    private func build() async {
        let started = ContinuousClock.now
        if await readSnapshot(started: started) {
            state.withLockedValue { state in
                state.building = nil
                state.failedAt = nil
            }
            return
        }
        do {
            let loaded = try await Loaded(load())
            try Task.checkCancellation()
            let version = loaded.version
            let index = await Self.make(from: loaded)
            state.withLockedValue { state in
                if (state.current?.version ?? .min) <= version { state.current = (version, index) }
                state.building = nil
                state.failedAt = nil
            }
            counts.withLockedValue { $0.builds += 1 }
            logger.info("search index ready", metadata: [
                "movies": "\(index.count)", "catalog_version": "\(version)",
                "took": "\((ContinuousClock.now - started).secondsText)", "from": "the catalogue",
                "size": "\(index.byteCount / 1_000_000) MB",
            ])
            await storeSnapshot(of: index, version: version)
        } catch {
            state.withLockedValue { state in
                state.building = nil
                state.failedAt = ContinuousClock.now
            }
            counts.withLockedValue { $0.failures += 1 }
            if !(error is CancellationError) {
                logger.warning("search index not made; the database answers searches until it is", metadata: ["reason": "\(error)"])
            }
        }
    }

    /// Takes an index read from a snapshot, unless one of a newer version is already held.
    func adopt(_ index: MemorySearchIndex, version: Int64) {
        state.withLockedValue { state in
            if (state.current?.version ?? .min) <= version { state.current = (version, index) }
        }
        counts.withLockedValue { $0.snapshotReads += 1 }
    }

    func beginReading(_ reading: Task<Void, Never>) {
        state.withLockedValue { $0.reading = reading }
    }

    /// Ends a snapshot's read; whether the keeper now holds an index.
    func endReading() -> Bool {
        state.withLockedValue { state in
            state.reading = nil
            return state.current != nil
        }
    }

    /// Sorts and inverts on a thread of its own: a million movies take seconds of one core, which
    /// the requests' cooperative threads must not lose. The entries are freed there too, before
    /// the index is handed on: freeing a million movies' words took a fifth of a second, and
    /// slowed the first searches the new index answered. What they held is then given back to the
    /// system: the allocator kept it, and the server's memory stayed at its peak.
    private static func make(from loaded: Loaded) async -> MemorySearchIndex {
        await OwnThread.run {
            var entries = loaded.take()
            let index = MemorySearchIndex(entries: entries)
            entries = SearchEntries()
            FreedMemory.returnToSystem()
            return index
        }
    }

    /// What a load read, held so that the thread that makes the index is the one that frees it.
    private final class Loaded: Sendable {
        package let version: Int64
        private let entries: NIOLockedValueBox<SearchEntries>

        package init(_ loaded: (version: Int64, entries: SearchEntries)) {
            version = loaded.version
            entries = NIOLockedValueBox(loaded.entries)
        }

        package func take() -> SearchEntries {
            entries.withLockedValue { entries in
                defer { entries = SearchEntries() }
                return entries
            }
        }
    }
}

/// Whether a database's searches are answered by an index kept in the server's memory
/// (``SearchIndexKeeper``) or by the database's own search alone.
package enum SearchIndexing: Sendable {
    case inProcess
    case off
}

/// What a ``SearchIndexKeeper`` has done: indexes made, snapshots read, attempts failed, searches answered.
package struct SearchIndexCounts: Sendable, Hashable {
    package var builds = 0
    package var snapshotReads = 0
    package var failures = 0
    package var answers = 0

    package init(builds: Int = 0, snapshotReads: Int = 0, failures: Int = 0, answers: Int = 0) {
        self.builds = builds
        self.snapshotReads = snapshotReads
        self.failures = failures
        self.answers = answers
    }
}
