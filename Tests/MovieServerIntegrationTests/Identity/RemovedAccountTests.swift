import Foundation
@testable import MovieServer
import Networking
import Testing

extension ServerDatabaseTests {
    /// What one removed account leaves to the next person who takes its name: nothing. Its list,
    /// its feed events, its kept answers and its tokens go with it, on every backend.
    @Suite("A removed account's name taken again", .timeLimit(.minutes(3)))
    struct RemovedAccountTests {
        static let privateNote = "victim's private note"

        @Test("the next owner of a removed account's name gets none of its events (resumed from 0, before and at the last id), list or kept answers; the old token is refused", arguments: Backend.allCases)
        func nothingReachesTheNextOwner(backend: Backend) async throws {
            try await backend.withStorage { storage in
                try await withServerClient(auth: PersonSignIn.auth(), storage: storage) { client in
                    let victim = try await PersonSignIn.tokens("victim", on: client)
                    let writer = try await Watchlister(client, token: victim.access)
                    #expect(try await writer.put(6, key: "victim-key", #"{"note":"\#(Self.privateNote)"}"#).status == 200)
                    try await FeedStreams.note(writer, movie: 7, "another private note")
                    let last = try await storage.eventLogBounds().latest

                    #expect(try await storage.removeAccount(named: "victim"))
                    let next = try await PersonSignIn.tokens("victim", password: "another horse", on: client)
                    let reader = try await Watchlister(client, token: next.access)

                    for (round, cursor) in ["0", String(last - 1), String(last)].enumerated() {
                        let stream = try await FeedStreams.stream(client, token: next.access, lastEventID: cursor)
                        defer { stream.close() }
                        let marker = "the new owner's note \(round)"
                        try await FeedStreams.note(reader, movie: 8, marker)
                        let events = try await stream.wait { $0.contains { $0.data.contains(marker) } }
                        let watchlist = events.filter { $0.type == "watchlist" }
                        #expect(watchlist.count == round + 1, "from \(cursor): the new owner's own changes only, not \(watchlist.map(\.data))")
                        #expect(watchlist.allSatisfy { $0.data.contains("the new owner's note") })
                        #expect(!events.contains { $0.data.contains("private note") })
                    }
                    let list = try await reader.list()
                    #expect(list.status == 200)
                    #expect((list.json?["entries"] as? [[String: Any]])?.map { $0["movieId"] as? Int } == [8])

                    let reused = try await reader.put(6, key: "victim-key", #"{"note":"mine"}"#)
                    #expect(reused.status == 200, "a key the old account used is the new owner's to use: \(String(decoding: reused.body, as: UTF8.self))")

                    #expect(try await writer.list().status == 401, "the removed account's token reads nothing")
                    let oldStream = try await FeedStreams.stream(client, token: victim.access, lastEventID: "0")
                    defer { oldStream.close() }
                    #expect(oldStream.status == 401)
                }
            }
        }

        @Test("sign-ins saved while the account is removed: none is left to the next owner of its name; an approval for the old account approves nothing", arguments: Backend.allCases)
        func racesWithRemoval(backend: Backend) async throws {
            try await backend.withStorage { storage in
                #expect(try await storage.createAccount(StoredAccount(name: "victim", passwordHash: "h", createdAt: IdentityFixtures.start)))
                let old = try #require(try await storage.account(named: "victim"))
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for index in 0..<20 {
                        group.addTask { _ = try await storage.saveSignIn(IdentityFixtures.signIn("s\(index)", of: old)) }
                        if index == 10 { group.addTask { _ = try await storage.removeAccount(named: "victim") } }
                    }
                    try await group.waitForAll()
                }
                #expect(try await storage.createAccount(StoredAccount(name: "victim", passwordHash: "h2", createdAt: IdentityFixtures.start)))
                let reborn = try #require(try await storage.account(named: "victim"))
                #expect(try await storage.signIns(ofAccount: "victim").allSatisfy { $0.accountID == reborn.id }, "no sign-in of the old account is the new one's")
                #expect(try await storage.signIns(ofAccount: "victim").isEmpty)

                let pending = StoredDeviceAuthorization(
                    deviceCodeHash: Array("race".utf8), userCode: "BCDFGHJK", clientID: "marquee-dev", deviceName: "tv",
                    createdAt: IdentityFixtures.start, expiresAt: IdentityFixtures.start + 600, interval: 5
                )
                #expect(try await storage.saveDeviceAuthorization(pending))
                #expect(try await !storage.decideDeviceAuthorization(userCode: "BCDFGHJK", account: ApprovingAccount(name: "victim", id: old.id), now: IdentityFixtures.start + 1))
                #expect(try await storage.deviceAuthorization(userCode: "BCDFGHJK")?.state == .pending)
            }
        }

        @Test("an approval that outlived its account is redeemed by no one, though an account of the same name exists")
        func staleApprovalIsRefused() async throws {
            let storage = MemoryStorage(catalog: try Catalog.reference())
            try await withServerClient(auth: PersonSignIn.auth(), storage: storage) { client in
                let flow = DeviceFlowClient(server: client)
                let started = try await flow.start()
                let userCode = try #require(UserCode(typed: started.userCode)).letters
                #expect(storage.createAccount(StoredAccount(name: "victim", passwordHash: "h", createdAt: Date())))
                let old = try #require(storage.account(named: "victim"))
                #expect(storage.decideDeviceAuthorization(userCode: userCode, account: ApprovingAccount(name: "victim", id: old.id), now: Date()))
                storage.identity.withLockedValue { state in
                    _ = state.removeAccount(named: "victim")
                    _ = state.add(StoredAccount(name: "victim", passwordHash: "h2", createdAt: Date()))
                }
                let poll = try await flow.poll(started.deviceCode)
                #expect(poll.error == "access_denied")
                #expect(poll.accessToken == nil)
            }
        }

        @Test("removing an account removes its feed events and journal in the same step; another account's stay", arguments: Backend.allCases)
        func removalTakesTheLog(backend: Backend) async throws {
            try await backend.withStorage { storage in
                let movie = try Catalog.reference().movies[0].id
                for name in ["victim", "bystander"] {
                    #expect(try await storage.createAccount(StoredAccount(name: name, passwordHash: "h", createdAt: IdentityFixtures.start)))
                }
                let victim = try await IdentityFixtures.owner("victim", in: storage)
                let bystander = try await IdentityFixtures.owner("bystander", in: storage)
                try await IdentityFixtures.put(storage, owner: victim, movie: movie, note: Self.privateNote, at: 1_700_000_000_000)
                try await IdentityFixtures.put(storage, owner: bystander, movie: movie, note: "bystander's", at: 1_700_000_000_000)

                #expect(try await storage.removeAccount(named: "victim"))
                #expect(try await storage.createAccount(StoredAccount(name: "victim", passwordHash: "h2", createdAt: IdentityFixtures.start)))
                let reborn = try await IdentityFixtures.owner("victim", in: storage)
                #expect(reborn != victim, "a name taken again gets a new id")

                let everything = try await storage.events(after: 0, for: .everyone, limit: 100)
                #expect(!everything.contains { $0.data.contains(Self.privateNote) || $0.owner == victim })
                #expect(everything.contains { $0.owner == bystander })
                #expect(try await storage.events(after: 0, for: .reader(owner: reborn), limit: 100).filter { $0.kind == .watchlist }.isEmpty)
                #expect(try await storage.watchlistJournal(owner: victim).isEmpty)
                #expect(try await storage.watchlist(owner: reborn).isEmpty)
                #expect(try await storage.watchlist(owner: bystander).map(\.note) == ["bystander's"])
            }
        }
    }
}
