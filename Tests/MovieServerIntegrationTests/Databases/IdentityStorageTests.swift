import Foundation
import MovieContract
import MovieServer
import Movies
import NetworkTestSupport
import Testing

extension ServerDatabaseTests {
    /// Accounts, sign-ins, person refresh tokens, device authorizations and page sessions, the
    /// same on every backend, with the atomic steps a second instance relies on.
    @Suite("Identity on every backend")
    struct IdentityStorageTests {

        @Test("accounts: one per name; a new password ends every sign-in with its tokens; removal takes the list and the sign-ins; another account's are untouched", arguments: Backend.allCases)
        func accounts(backend: Backend) async throws {
            try await backend.withStorage { storage in
                #expect(try await storage.createAccount(StoredAccount(name: "alice", passwordHash: "h1", createdAt: IdentityFixtures.start)))
                #expect(try await !storage.createAccount(StoredAccount(name: "alice", passwordHash: "h2", createdAt: IdentityFixtures.start)))
                #expect(try await storage.createAccount(StoredAccount(name: "bob", passwordHash: "hb", createdAt: IdentityFixtures.start)))
                #expect(try await storage.accounts().map(\.name) == ["alice", "bob"])
                #expect(try await storage.account(named: "alice")?.passwordHash == "h1")

                let alice = try #require(try await storage.account(named: "alice")), bob = try #require(try await storage.account(named: "bob"))
                #expect(alice.id != bob.id)
                for (id, account) in [("a1", alice), ("a2", alice), ("b1", bob)] {
                    #expect(try await storage.saveSignIn(IdentityFixtures.signIn(id, of: account)))
                    try await storage.saveRefreshToken(StoredRefreshToken(hash: Array(id.utf8), clientID: "marquee-dev", expiresAt: IdentityFixtures.start + 3600, signInID: id))
                }
                try await storage.touchSignIn(id: "a2", at: IdentityFixtures.start + 60)
                #expect(try await storage.signIns(ofAccount: "alice").map(\.id) == ["a2", "a1"], "the most recently used first")

                #expect(try await storage.setPasswordHash("h3", ofAccount: "alice"))
                #expect(try await storage.signIns(ofAccount: "alice").isEmpty)
                #expect(try await storage.redeemRefreshToken(hash: Array("a1".utf8)) == .unknown)
                #expect(try await storage.signIn(id: "b1") != nil)
                #expect(try await !storage.setPasswordHash("h", ofAccount: "nobody"))

                let movie = try Catalog.reference().movies[0].id
                try await IdentityFixtures.put(storage, owner: WatchlistOwner.account(id: bob.id), movie: movie, note: "bob's", at: 1_700_000_000_000)
                try await IdentityFixtures.put(storage, owner: WatchlistOwner.account(id: alice.id), movie: movie, note: "alice's", at: 1_700_000_000_000)
                #expect(try await storage.removeAccount(named: "bob"))
                #expect(try await storage.watchlist(owner: WatchlistOwner.account(id: bob.id)).isEmpty)
                #expect(try await storage.signIn(id: "b1") == nil)
                #expect(try await storage.redeemRefreshToken(hash: Array("b1".utf8)) == .unknown)
                #expect(try await !storage.saveSignIn(IdentityFixtures.signIn("b2", of: bob)), "no sign-in for a removed account")
                #expect(try await storage.watchlist(owner: WatchlistOwner.account(id: alice.id)).map(\.note) == ["alice's"])
                #expect(try await !storage.removeAccount(named: "bob"))
                #expect(try await storage.accounts().map(\.name) == ["alice"])
            }
        }

        @Test("every way a sign-in ends writes one sign-out event for its account, seen by the instances' feed and by no reader; the account's removal keeps only that one", arguments: Backend.allCases)
        func signOutEvents(backend: Backend) async throws {
            try await backend.withStorage { storage in
                for name in ["alice", "bob"] {
                    #expect(try await storage.createAccount(StoredAccount(name: name, passwordHash: "h", createdAt: IdentityFixtures.start)))
                }
                let alice = try #require(try await storage.account(named: "alice"))
                let owner = WatchlistOwner.account(id: alice.id)
                func signOuts(after cursor: Int64) async throws -> [String?] {
                    try await storage.events(after: cursor, for: .everyone, limit: 100).filter { $0.kind == .signOut }.map(\.owner)
                }
                func signIn(round: Int) async throws {
                    for id in ["a1", "a2"] { #expect(try await storage.saveSignIn(IdentityFixtures.signIn("\(id)-\(round)", of: alice))) }
                }

                try await signIn(round: 1)
                try await IdentityFixtures.put(storage, owner: owner, movie: try Catalog.reference().movies[0].id, note: "kept", at: 1_700_000_000_000)
                var cursor = try await storage.eventLogBounds().latest
                #expect(try await storage.endSignIns(ofAccount: "alice", id: "a1-1") == 1)
                #expect(try await signOuts(after: cursor) == [owner], "one device signed out")
                cursor = try await storage.eventLogBounds().latest
                #expect(try await storage.endSignIns(ofAccount: "alice", id: "nothing") == 0)
                #expect(try await storage.endSignIns(ofAccount: "bob", id: nil) == 0)
                #expect(try await signOuts(after: cursor).isEmpty, "nothing ended, nothing said")

                try await signIn(round: 2)
                cursor = try await storage.eventLogBounds().latest
                #expect(try await storage.setPasswordHash("h2", ofAccount: "alice"))
                #expect(try await signOuts(after: cursor) == [owner], "three sign-ins ended by a new password: one event")

                try await signIn(round: 3)
                #expect(try await storage.removeAccount(named: "alice"))
                #expect(
                    try await storage.events(after: 0, for: .everyone, limit: 100).filter { $0.owner == owner }.map(\.kind) == [.signOut],
                    "the removal's sign-out, written after the account's earlier events were deleted with its list"
                )
                #expect(try await !storage.events(after: 0, for: .reader(owner: owner), limit: 100).contains { $0.kind == .signOut }, "a reader is sent no sign-out")
            }
        }

        @Test("40 watchlist writes racing their account's removal: what landed before it goes with it, a write after it is refused whole, and nothing is left under the removed account", arguments: Backend.allCases)
        func writesRacingRemoval(backend: Backend) async throws {
            try await backend.withStorage { storage in
                _ = try await storage.createAccount(StoredAccount(name: "alice", passwordHash: "h", createdAt: IdentityFixtures.start))
                let alice = try #require(try await storage.account(named: "alice"))
                let owner = WatchlistOwner.account(id: alice.id)
                let movies = try Catalog.reference().movies.map(\.id)
                @Sendable func write(_ n: Int) async throws -> WatchlistAnswer {
                    let change = WatchlistChangeRecord(
                        id: "c\(n)", movieID: movies[n % movies.count], action: .add, note: "n\(n)", changedAt: 1_700_000_000_000 + Int64(n), device: "d"
                    )
                    let write = WatchlistWrite(
                        owner: owner, account: alice.id, key: "k\(n)", request: "PUT", body: Data("\(n)".utf8), changes: [change], shape: .single
                    )
                    return try await storage.applyWatchlist(write, now: IdentityFixtures.start)
                }
                let answers = try await withThrowingTaskGroup(of: WatchlistAnswer?.self) { group in
                    for n in 0..<40 {
                        group.addTask { try await write(n) }
                        if n == 20 {
                            group.addTask {
                                let removed = try await storage.removeAccount(named: "alice")
                                #expect(removed)
                                return nil
                            }
                        }
                    }
                    return try await group.reduce(into: [WatchlistAnswer]()) { if let answer = $1 { $0.append(answer) } }
                }
                #expect(answers.count == 40 && answers.allSatisfy { $0.status == 200 || $0 == .accountRemoved }, "\(answers.filter { $0.status != 200 })")
                #expect(try await write(99) == .accountRemoved)
                #expect(try await storage.watchlistEntries(owner: owner).isEmpty)
                #expect(try await storage.watchlistJournal(owner: owner).isEmpty)
                #expect(try await storage.events(after: 0, for: .everyone, limit: 1_000).filter { $0.owner == owner && $0.kind == .watchlist }.isEmpty)
            }
        }

        @Test("a list kept under a client id moves to an account, the later change winning per movie; each change to the account's list is an event of the account's feed", arguments: Backend.allCases)
        func moveWatchlist(backend: Backend) async throws {
            try await backend.withStorage { storage in
                let movies = try Catalog.reference().movies.prefix(3).map(\.id)
                _ = try await storage.createAccount(StoredAccount(name: "alice", passwordHash: "h", createdAt: IdentityFixtures.start))
                let owner = try await IdentityFixtures.owner("alice", in: storage)
                try await IdentityFixtures.put(storage, owner: "old-client", movie: movies[0], note: "older, from the client", at: 1_000)
                try await IdentityFixtures.put(storage, owner: owner, movie: movies[0], note: "newer, the account's", at: 2_000)
                try await IdentityFixtures.put(storage, owner: "old-client", movie: movies[1], note: "newer, from the client", at: 3_000)
                try await IdentityFixtures.put(storage, owner: owner, movie: movies[1], note: "older, the account's", at: 2_500)
                try await IdentityFixtures.put(storage, owner: "old-client", movie: movies[2], note: "only the client's", at: 1_000)
                let before = try await storage.eventLogBounds().latest
                #expect(try await storage.moveWatchlist(from: "old-client", toAccount: "alice") == 3)
                let events = try await storage.events(after: before, for: .reader(owner: owner), limit: 10)
                #expect(events.allSatisfy { $0.kind == .watchlist && $0.owner == owner }, "\(events)")
                #expect(Set(events.map(\.data)) == [
                    #"{"movieId":\#(movies[1]),"note":"newer, from the client","changedAt":"1970-01-01T00:00:03.000Z","device":"d","removed":false}"#,
                    #"{"movieId":\#(movies[2]),"note":"only the client's","changedAt":"1970-01-01T00:00:01.000Z","device":"d","removed":false}"#,
                ], "only the entries that changed the account's list: \(events.map(\.data))")
                let notes = Dictionary(uniqueKeysWithValues: try await storage.watchlist(owner: owner).map { ($0.movieID, $0.note) })
                #expect(notes == [movies[0]: "newer, the account's", movies[1]: "newer, from the client", movies[2]: "only the client's"])
                #expect(try await storage.watchlist(owner: "old-client").isEmpty)
            }
        }

        @Test("a refresh token: of 20 redemptions at once one redeems it, the rest see it reused; a revoked one is unknown", arguments: Backend.allCases)
        func refreshRedemption(backend: Backend) async throws {
            try await backend.withStorage { storage in
                let token = StoredRefreshToken(hash: Array("t".utf8), clientID: "marquee-dev", expiresAt: IdentityFixtures.start + 60, signInID: "s")
                try await storage.saveRefreshToken(token)
                let outcomes = try await withThrowingTaskGroup(of: RefreshRedemption.self) { group in
                    for _ in 0..<20 { group.addTask { try await storage.redeemRefreshToken(hash: token.hash) } }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(outcomes.filter { $0 == .redeemed(token) }.count == 1)
                #expect(outcomes.filter { $0 == .reused(token) }.count == 19)
                #expect(try await storage.revokeRefreshToken(hash: token.hash) == token)
                #expect(try await storage.redeemRefreshToken(hash: token.hash) == .unknown)
            }
        }

        @Test("a device authorization: unique user codes; decided once while pending; polls slow down and an approval is redeemed by exactly one of 20", arguments: Backend.allCases)
        func deviceAuthorizations(backend: Backend) async throws {
            try await backend.withStorage { storage in
                let pending = StoredDeviceAuthorization(
                    deviceCodeHash: Array("d1".utf8), userCode: "BCDFGHJK", clientID: "marquee-dev", deviceName: "laptop",
                    createdAt: IdentityFixtures.start, expiresAt: IdentityFixtures.start + 600, interval: 5
                )
                #expect(try await storage.saveDeviceAuthorization(pending))
                var clash = pending
                clash.deviceCodeHash = Array("d2".utf8)
                #expect(try await !storage.saveDeviceAuthorization(clash), "the user code is taken")

                #expect(try await storage.pollDeviceAuthorization(deviceCodeHash: pending.deviceCodeHash, now: IdentityFixtures.start + 1, slowDownBy: 5) == pending)
                let second = try #require(try await storage.pollDeviceAuthorization(deviceCodeHash: pending.deviceCodeHash, now: IdentityFixtures.start + 2, slowDownBy: 5))
                #expect(second.lastPolledAt == IdentityFixtures.start + 1)
                #expect(second.isTooSoon(IdentityFixtures.start + 2))
                #expect(try await storage.deviceAuthorization(userCode: "BCDFGHJK")?.interval == 10)

                #expect(try await storage.createAccount(StoredAccount(name: "alice", passwordHash: "h", createdAt: IdentityFixtures.start)))
                let alice = try #require(try await storage.account(named: "alice"))
                let approving = ApprovingAccount(name: "alice", id: alice.id)
                #expect(try await !storage.decideDeviceAuthorization(userCode: "BCDFGHJK", account: approving, now: IdentityFixtures.start + 601), "expired")
                #expect(try await !storage.decideDeviceAuthorization(userCode: "BCDFGHJK", account: ApprovingAccount(name: "alice", id: "another id"), now: IdentityFixtures.start + 3), "an account of that name, not that one")
                #expect(try await storage.decideDeviceAuthorization(userCode: "BCDFGHJK", account: approving, now: IdentityFixtures.start + 3))
                #expect(try await !storage.decideDeviceAuthorization(userCode: "BCDFGHJK", account: nil, now: IdentityFixtures.start + 4), "decided already")
                let polls = try await withThrowingTaskGroup(of: StoredDeviceAuthorization?.self) { group in
                    for _ in 0..<20 {
                        group.addTask { try await storage.pollDeviceAuthorization(deviceCodeHash: pending.deviceCodeHash, now: IdentityFixtures.start + 30, slowDownBy: 5) }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(polls.filter { $0?.state == .approved }.count == 1)
                #expect(polls.filter { $0?.state == .redeemed }.count == 19)
                #expect(polls.allSatisfy { $0?.account == "alice" && $0?.accountID == alice.id })
                try await storage.removeDeviceAuthorizations(expiredBefore: IdentityFixtures.start + 601)
                #expect(try await storage.deviceAuthorization(userCode: "BCDFGHJK") == nil)
            }
        }

        @Test("a page session: kept until it expires, replaced, removed", arguments: Backend.allCases)
        func webSessions(backend: Backend) async throws {
            try await backend.withStorage { storage in
                try await storage.setWebSession(key: "k", value: Data("one".utf8), expiresAt: IdentityFixtures.start + 60)
                #expect(try await storage.webSession(key: "k", now: IdentityFixtures.start)?.value == Data("one".utf8))
                #expect(try await storage.webSession(key: "k", now: IdentityFixtures.start + 61) == nil)
                try await storage.setWebSession(key: "k", value: Data("two".utf8), expiresAt: nil)
                #expect(try await storage.webSession(key: "k", now: IdentityFixtures.start + 10_000)?.value == Data("two".utf8))
                try await storage.removeWebSession(key: "k")
                #expect(try await storage.webSession(key: "k", now: IdentityFixtures.start) == nil)
            }
        }

        @Test("two instances on one database: a code from A approved on B's page is redeemed at A; the person's refresh works at B and a replay at A ends the chain", arguments: Backend.databases)
        func twoInstances(backend: Backend) async throws {
            try await backend.withTwoInstances(auth: { PersonSignIn.auth() }) { first, second in
                let flowAtA = DeviceFlowClient(server: first)
                let started = try await flowAtA.start()
                #expect(try await PageClient(port: second.server.port).decide(started.userCode, as: "alice", signUp: true).status == 200)
                let granted = try await flowAtA.poll(started.deviceCode)
                let refresh = try #require(granted.refreshToken)
                let atB = try await DeviceFlowClient(server: second).refresh(refresh)
                #expect(atB.status == 200)
                #expect(TokenClaims.of(try #require(atB.accessToken))["sub"] as? String == "alice")
                #expect(try await flowAtA.refresh(refresh).error == "invalid_grant")
                #expect(try await DeviceFlowClient(server: second).refresh(try #require(atB.refreshToken)).error == "invalid_grant")
            }
        }
    }
}
