import Foundation
import MovieServer
import Testing

extension ServerDatabaseTests {
    /// The feed log's reads, the same on every backend: strictly after the cursor, in order, each
    /// reader's own and the catalogue's.
    @Suite("The event log on every backend")
    struct EventLogContractTests {
        @Test("events after a cursor never include the cursor's own event, for everyone and for a reader; a page is the oldest first", arguments: Backend.allCases)
        func strictlyAfterTheCursor(backend: Backend) async throws {
            try await backend.withStorage { storage in
                #expect(try await storage.createAccount(StoredAccount(name: "alice", passwordHash: "h", createdAt: IdentityFixtures.start)))
                let owner = try await IdentityFixtures.owner("alice", in: storage)
                let movies = try Catalog.reference().movies.prefix(3).map(\.id)
                for (index, movie) in movies.enumerated() {
                    try await IdentityFixtures.put(storage, owner: owner, movie: movie, note: "note \(index)", at: 1_700_000_000_000 + Int64(index))
                }
                let full = try await storage.events(after: 0, for: .everyone, limit: 100)
                let all = full.filter { $0.kind == .watchlist }
                #expect(all.count == 3)
                #expect(full.map(\.sequence) == full.map(\.sequence).sorted())
                for audience in [EventAudience.everyone, .reader(owner: owner)] {
                    let afterSecond = try await storage.events(after: all[1].sequence, for: audience, limit: 100)
                    #expect(afterSecond.map(\.sequence) == [all[2].sequence], "\(audience)")
                    #expect(try await storage.events(after: all[2].sequence, for: audience, limit: 100).isEmpty, "\(audience)")
                    let firstTwo = try await storage.events(after: all[0].sequence - 1, for: audience, limit: 2)
                    #expect(firstTwo.map(\.sequence) == [all[0].sequence, all[1].sequence])
                }
                #expect(try await storage.events(after: 0, for: .reader(owner: "account/someone-else"), limit: 100).allSatisfy { $0.kind == .catalog })
            }
        }
    }
}
