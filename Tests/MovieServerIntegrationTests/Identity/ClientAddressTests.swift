import Foundation
import MarqueeTestSupport
@testable import MovieServer
import MovieServerDatabases
import NetworkTestSupport
import ServerTestSupport
import Testing

/// Whose address a request counts against: the peer's, or behind a configured proxy the client it
/// forwarded; an IPv6 address by its /64; and a full count table that forgets only what is stale.
@Suite("Client addresses")
struct ClientAddressTests {
    static let proxy = try! TrustedProxies.Range(parsing: "127.0.0.1")

    @Test("behind a trusted proxy the client is the header's rightmost untrusted address; a client's own entries are to its left and never reached")
    func forwardedClient() throws {
        let nginx = IPAddress("10.0.0.2")
        let proxies = TrustedProxies([try .init(parsing: "10.0.0.0/8")])
        #expect(proxies.client(peer: nginx, headerLines: ["203.0.113.5"]) == IPAddress("203.0.113.5"))
        #expect(proxies.client(peer: nginx, headerLines: ["198.51.100.1, 203.0.113.5"]) == IPAddress("203.0.113.5"), "a spoofed entry left of the real one")
        #expect(proxies.client(peer: nginx, headerLines: ["198.51.100.1", "203.0.113.5, 10.0.0.9"]) == IPAddress("203.0.113.5"), "trusted hops skipped, lines in order")
        #expect(proxies.client(peer: nginx, headerLines: ["unknown, 10.0.0.9"]) == IPAddress("10.0.0.9"), "garbage stops the walk at the last trusted hop")
        #expect(proxies.client(peer: nginx, headerLines: []) == nginx)
        #expect(proxies.client(peer: IPAddress("198.51.100.9"), headerLines: ["203.0.113.5"]) == IPAddress("198.51.100.9"), "an untrusted peer's header is ignored")
        #expect(TrustedProxies.none.client(peer: IPAddress("127.0.0.1"), headerLines: ["203.0.113.5"]) == IPAddress("127.0.0.1"))

        let forwarded = TrustedProxies([try .init(parsing: "10.0.0.0/8")], header: .forwarded)
        #expect(forwarded.client(peer: nginx, headerLines: [#"for=198.51.100.1, for="[2001:db8::7]:4711";proto=https"#]) == IPAddress("2001:db8::7"))
        #expect(forwarded.client(peer: nginx, headerLines: ["for=_hidden"]) == nginx)
    }

    @Test("ranges: IPv4 and IPv6 prefixes, a single address, IPv4-mapped IPv6; bad ones are named")
    func ranges() throws {
        let v6 = try TrustedProxies.Range(parsing: "2001:db8::/32")
        #expect(TrustedProxies([v6]).trusts(try #require(IPAddress("2001:db8:ffff::1"))))
        #expect(!TrustedProxies([v6]).trusts(try #require(IPAddress("2001:db9::1"))))
        let single = try TrustedProxies.Range(parsing: "192.0.2.7")
        #expect(TrustedProxies([single]).trusts(try #require(IPAddress("::ffff:192.0.2.7"))))
        #expect(!TrustedProxies([single]).trusts(try #require(IPAddress("192.0.2.8"))))
        #expect(throws: TrustedProxyError.notAnAddress("proxy.local")) { try TrustedProxies.Range(parsing: "proxy.local") }
        #expect(throws: TrustedProxyError.badPrefix("10.0.0.0/33", width: 32)) { try TrustedProxies.Range(parsing: "10.0.0.0/33") }
    }

    @Test("an IPv6 address counts by its /64, an IPv4 address by itself")
    func parties() throws {
        #expect(IPAddress("2001:db8:1:2:aaaa::1")?.party == IPAddress("2001:db8:1:2:ffff:1:2:3")?.party)
        #expect(IPAddress("2001:db8:1:2::1")?.party != IPAddress("2001:db8:1:3::1")?.party)
        #expect(IPAddress("2001:db8:1:2::1")?.party == "2001:db8:1:2::/64")
        #expect(IPAddress("192.0.2.1")?.party != IPAddress("192.0.2.2")?.party)
        #expect(IPAddress("[::1]:8080") == IPAddress("::1"))
        #expect(IPAddress("192.0.2.1:80") == IPAddress("192.0.2.1"))
    }

    @Test("a full count table forgets the stale keys and the least recently used below their limit: a locked account stays locked through a flood of new keys")
    func fullTableKeepsLocks() {
        let attempts = MemoryAttempts(capacity: 100)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let since = start.addingTimeInterval(-600)
        let locked = [AttemptLimit(key: "account:alice", limit: 3)]
        for index in 0..<3 { #expect(attempts.count(locked, id: "a\(index)", now: start, since: since) == nil) }
        #expect(attempts.count(locked, id: "a3", now: start, since: since) == start)
        for index in 0..<1_000 {
            let now = start.addingTimeInterval(Double(index) / 10)
            _ = attempts.count([AttemptLimit(key: "address:\(index)", limit: 10)], id: "f\(index)", now: now, since: now.addingTimeInterval(-600))
        }
        #expect(attempts.keyCount <= 100)
        let later = start.addingTimeInterval(100)
        #expect(attempts.count(locked, id: "after", now: later, since: later.addingTimeInterval(-600)) == start, "alice is still locked")
    }

    @Test("behind a trusted proxy, ten wrong passwords from one client lock that client, not another client of the same proxy; without the setting the proxy is everyone")
    func proxiedSignIns() async throws {
        var auth = PersonSignIn.auth()
        auth.signInLimit = 3
        try await withServerClient(auth: auth, trustedProxies: TrustedProxies([Self.proxy])) { server in
            _ = try await server.server.server.accounts.create(name: "alice", password: "correct horse")
            let attacker = PageClient(port: server.server.port)
            attacker.forwardedFor = "203.0.113.5"
            try await attacker.get("/device")
            for _ in 0..<3 { #expect(try await attacker.post("/device/sign-in", ["name": "bob", "password": "wrong password"]).status == 401) }
            #expect(try await attacker.post("/device/sign-in", ["name": "bob", "password": "wrong password"]).status == 429)
            attacker.forwardedFor = "198.51.100.1, 203.0.113.5"
            #expect(try await attacker.post("/device/sign-in", ["name": "bob", "password": "wrong password"]).status == 429, "a spoofed entry changes nothing")

            let person = PageClient(port: server.server.port)
            person.forwardedFor = "198.51.100.7"
            try await person.get("/device")
            #expect(try await person.post("/device/sign-in", ["name": "alice", "password": "correct horse"]).status == 303)
        }
        try await withServerClient(auth: auth) { server in
            _ = try await server.server.server.accounts.create(name: "alice", password: "correct horse")
            let attacker = PageClient(port: server.server.port)
            attacker.forwardedFor = "203.0.113.5"
            try await attacker.get("/device")
            for _ in 0..<3 { _ = try await attacker.post("/device/sign-in", ["name": "bob", "password": "wrong password"]) }
            let person = PageClient(port: server.server.port)
            person.forwardedFor = "198.51.100.7"
            try await person.get("/device")
            #expect(try await person.post("/device/sign-in", ["name": "alice", "password": "correct horse"]).status == 429, "the header of an untrusted peer is not read")
        }
    }
}

extension ServerDatabaseTests {
    /// Two instances on one database count sign-in attempts together.
    @Suite("Sign-in limits across instances")
    struct SharedSignInLimitTests {
        @Test("wrong passwords through A and B count against one limit: the address's fourth try waits on either", arguments: Backend.databases)
        func limitsAreShared(backend: Backend) async throws {
            let location = try await backend.makeLocation()
            let first = try await location.open(logger: quietLogger, queryTimeout: generousQueryTimeout)
            let second: any ServerStorage
            do { second = try await location.open(logger: quietLogger, queryTimeout: generousQueryTimeout) } catch {
                await first.close()
                throw error
            }
            var auth = PersonSignIn.auth()
            auth.signInLimit = 3
            try await finally(
                try await withServerClient(auth: auth, storage: first) { a in
                    try await withServerClient(auth: auth, storage: second) { b in
                        let onA = PageClient(port: a.server.port), onB = PageClient(port: b.server.port)
                        try await onA.get("/device")
                        try await onB.get("/device")
                        #expect(try await onA.post("/device/sign-in", ["name": "bob", "password": "wrong password"]).status == 401)
                        #expect(try await onB.post("/device/sign-in", ["name": "bob", "password": "wrong password"]).status == 401)
                        #expect(try await onA.post("/device/sign-in", ["name": "bob", "password": "wrong password"]).status == 401)
                        #expect(try await onB.post("/device/sign-in", ["name": "bob", "password": "wrong password"]).status == 429)
                        #expect(try await onA.post("/device/sign-in", ["name": "bob", "password": "wrong password"]).status == 429)
                    }
                }
            ) {
                await second.close()
                await first.close()
            }
        }

        @Test("of 20 attempts at once under one key with a limit of 5, on two instances' storage, exactly 5 are counted", arguments: Backend.databases)
        func concurrentAttempts(backend: Backend) async throws {
            let location = try await backend.makeLocation()
            let first = try await location.open(logger: quietLogger, queryTimeout: generousQueryTimeout)
            let second: any ServerStorage
            do { second = try await location.open(logger: quietLogger, queryTimeout: generousQueryTimeout) } catch {
                await first.close()
                throw error
            }
            let now = Date()
            let limit = [AttemptLimit(key: "address:192.0.2.1", limit: 5)]
            let counted = try await finally(
                try await withThrowingTaskGroup(of: Bool.self) { group in
                    for index in 0..<20 {
                        let storage = index.isMultiple(of: 2) ? first : second
                        group.addTask { try await storage.countAttempt(limit, id: "a\(index)", now: now, since: now.addingTimeInterval(-600)) == nil }
                    }
                    return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
                }
            ) {
                await second.close()
                await first.close()
            }
            #expect(counted == 5)
        }
    }
}
