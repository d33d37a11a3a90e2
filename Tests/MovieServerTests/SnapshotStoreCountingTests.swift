import Foundation
import Logging
@testable import MovieServer
import Testing

/// The search index's snapshot store, as the backends give it to the index keeper: its failed
/// calls are counted with the backend's other database failures.
@Suite("The snapshot store's failures, counted")
struct SnapshotStoreCountingTests {
    struct Broken: Error {}

    @Test("a failed write or discard is counted under its operation and still thrown; a read that works is not counted")
    func failuresAreCounted() async throws {
        let failures = StorageFailures(logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        let store = SearchIndexSnapshotStore(
            read: { nil },
            write: { _, _ in throw Broken() },
            discard: { _ in throw Broken() }
        ).counted(in: failures) { _ in "the disk is full" }
        #expect(try await store.read() == nil)
        await #expect(throws: Broken.self) { try await store.write([1, 2, 3], 7) }
        await #expect(throws: Broken.self) { try await store.write([1, 2, 3], 8) }
        await #expect(throws: Broken.self) { try await store.discard(7) }
        #expect(failures.byOperation == ["search_index_snapshot_write": 2, "search_index_snapshot_discard": 1])
    }
}
