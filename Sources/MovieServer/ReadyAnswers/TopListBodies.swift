import NIOConcurrencyHelpers

/// The encoded top lists, kept per catalog version: a list is read from storage and encoded
/// once, then served from memory until the catalog changes. The version is asked of storage at
/// most once per `recheckInterval`, by one request while the others go on with what is kept; without
/// an interval (a catalog in memory, which never changes), it is asked once.
final class TopListBodies: Sendable {
    private struct Key: Hashable {
        let order: TopListOrder
        let year: Int
    }

    private struct State {
        var version: Int64?
        var checkedAt: ContinuousClock.Instant?
        var isChecking = false
        var bodies: [Key: CacheableBody] = [:]
    }

    private let storage: any ServerStorage
    private let recheckInterval: Duration?
    private let state = NIOLockedValueBox(State())

    init(storage: any ServerStorage, recheckInterval: Duration? = .seconds(1)) {
        self.storage = storage
        self.recheckInterval = recheckInterval
    }

    func body(_ order: TopListOrder, year: Int) async throws(StorageError) -> CacheableBody {
        await recheckVersionIfDue()
        let key = Key(order: order, year: year)
        let (kept, version) = state.withLockedValue { ($0.bodies[key], $0.version) }
        if let kept { return kept }
        let movies = try await storage.topMovies(order, year: year, limit: Catalog.topListLimit)
        let body = CacheableBody(json: ContractJSON.list(movies))
        state.withLockedValue { state in
            if state.version == version { state.bodies[key] = body }
        }
        return body
    }

    /// The list as kept, without waiting: `nil` when it is not kept or when the catalog version
    /// is due to be asked again, which only ``body(_:year:)`` does.
    func keptBody(_ order: TopListOrder, year: Int, now: ContinuousClock.Instant) -> CacheableBody? {
        state.withLockedValue { state in
            guard let checkedAt = state.checkedAt else { return nil }
            if let recheckInterval, checkedAt.advanced(by: recheckInterval) <= now { return nil }
            return state.bodies[Key(order: order, year: year)]
        }
    }

    /// Encodes every list of `years` now, so that the first requests find them ready.
    func prepare(years: Set<Int>) async throws(StorageError) {
        for year in years {
            for order in TopListOrder.allCases { _ = try await body(order, year: year) }
        }
    }

    private func recheckVersionIfDue() async {
        let now = ContinuousClock.now
        let isDue = state.withLockedValue { state in
            guard !state.isChecking else { return false }
            if let checkedAt = state.checkedAt {
                guard let recheckInterval, checkedAt.advanced(by: recheckInterval) <= now else { return false }
            }
            state.isChecking = true
            return true
        }
        guard isDue else { return }
        let version = try? await storage.catalogVersion()
        state.withLockedValue { state in
            state.isChecking = false
            state.checkedAt = now
            guard let version else { return }
            if version != state.version {
                state.version = version
                state.bodies.removeAll()
            }
        }
    }
}
