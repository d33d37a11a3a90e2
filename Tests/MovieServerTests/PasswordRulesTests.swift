import Foundation
@testable import MovieServer
import Testing

/// Passwords as people type them: one password however its accents are encoded, nothing past what
/// bcrypt reads, none of the passwords an attacker tries first, and hashes that follow the
/// server's cost without signing anyone out.
@Suite("Password rules")
struct PasswordRulesTests {
    static func accounts(cost: UInt8 = 4, storage: MemoryStorage = MemoryStorage(catalog: .empty)) -> Accounts {
        Accounts(storage: storage, hasher: PasswordHasher(cost: cost))
    }

    @Test("é typed as one code point or as e and an accent is one password; any space is a space")
    func normalization() async throws {
        let composed = "caf\u{E9} au lait", decomposed = "cafe\u{301} au lait"
        #expect(!composed.utf8.elementsEqual(decomposed.utf8), "two encodings of one text")
        #expect(PasswordRule.normalized(decomposed).utf8.elementsEqual(composed.utf8))
        #expect(PasswordRule.normalized("caf\u{E9}\u{00A0}au\u{2003}lait").utf8.elementsEqual(composed.utf8))
        let accounts = Self.accounts()
        try await accounts.create(name: "alice", password: composed)
        #expect(try await accounts.authenticate(name: "alice", password: decomposed) != nil)
        #expect(try await accounts.authenticate(name: "alice", password: "caf\u{E9}\u{00A0}au lait") != nil)
    }

    @Test("a password longer than bcrypt reads is refused when chosen and never matches when typed")
    func longPasswords() async throws {
        let accounts = Self.accounts()
        let longest = "correct horse battery staple " + String(repeating: "x", count: PasswordRule.maximumBytes - 29)
        #expect(longest.utf8.count == PasswordRule.maximumBytes)
        try await accounts.create(name: "alice", password: longest)
        #expect(try await accounts.authenticate(name: "alice", password: longest) != nil)
        #expect(try await accounts.authenticate(name: "alice", password: longest + "EXTRA") == nil, "bcrypt would have cut it to the stored password")
        #expect(throws: AccountError.self) { try PasswordRule.check(longest + "y") }
    }

    @Test("the most common passwords, runs, repeats and the account's name are refused; a few words of one's own are not")
    func weakPasswords() throws {
        #expect(CommonPasswords.list.count > 200, "the list is read from the server's resources")
        for weak in ["password", "Password1", "iloveyou", "qwertyuiop", "12345678", "aaaaaaaa", "abababab", "abcdefgh", "hgfedcba", "87654321"] {
            #expect(throws: AccountError.self, "\(weak)") { try PasswordRule.check(weak) }
        }
        #expect(throws: AccountError.self) { try PasswordRule.check("alice-is-great", accountName: "Alice") }
        try PasswordRule.check("correct horse", accountName: "alice")
        try PasswordRule.check("marmalade at dawn")
    }

    @Test("a sign-in moves a hash of another cost to the server's, without ending any sign-in; a password stored before normalization still signs in and is stored normalized")
    func rehashOnSignIn() async throws {
        let storage = MemoryStorage(catalog: .empty)
        try await Self.accounts(cost: 5, storage: storage).create(name: "alice", password: "correct horse")
        let alice = try #require(storage.account(named: "alice"))
        #expect(PasswordHasher.cost(of: alice.passwordHash) == 5)
        let signIn = StoredSignIn(id: "s1", account: "alice", accountID: alice.id, clientID: "marquee-dev", deviceName: "laptop", createdAt: Date(), lastUsedAt: Date())
        #expect(storage.saveSignIn(signIn))
        #expect(try await Self.accounts(cost: 4, storage: storage).authenticate(name: "alice", password: "correct horse") != nil)
        #expect(PasswordHasher.cost(of: try #require(storage.account(named: "alice")).passwordHash) == 4)
        #expect(storage.signIn(id: "s1") != nil, "nobody was signed out")

        let decomposed = "cafe\u{301} au lait"
        let typedHash = try await PasswordHasher(cost: 4).hash(decomposed)
        #expect(storage.createAccount(StoredAccount(name: "bob", passwordHash: typedHash, createdAt: Date())))
        #expect(try await Self.accounts(storage: storage).authenticate(name: "bob", password: decomposed) != nil)
        let rehashed = try #require(storage.account(named: "bob")).passwordHash
        #expect(rehashed != typedHash)
        #expect(try await PasswordHasher(cost: 4).verify(PasswordRule.normalized(decomposed), hash: rehashed))
    }

    @Test("every check does the work of one at the configured cost: an unknown name's, a cheaper stored hash's, and an unknown name's after a check of a cheaper hash (no steering)")
    func everyCheckCostsTheSame() async throws {
        let hasher = PasswordHasher(cost: 6)
        let atCost: UInt64 = 1 << 6
        func rounds(_ check: () async throws -> Bool) async throws -> (UInt64, Bool) {
            let before = hasher.roundsRun
            let matched = try await check()
            return (hasher.roundsRun - before, matched)
        }
        let cheaper = try await PasswordHasher(cost: 4).hash("correct horse")
        let current = try await hasher.hash("correct horse")
        #expect(try await rounds { try await hasher.verify("correct horse", hash: nil) } == (atCost, false))
        #expect(try await rounds { try await hasher.verify("wrong horse", hash: cheaper) } == (atCost, false))
        #expect(try await rounds { try await hasher.verify("correct horse", hash: cheaper) } == (atCost, true))
        #expect(try await rounds { try await hasher.verify("correct horse", hash: nil) } == (atCost, false), "not moved by the cheaper hash checked before")
        #expect(try await rounds { try await hasher.verify("correct horse", hash: current) } == (atCost, true))
        #expect(try await rounds { try await hasher.verify("correct horse", hash: "not a hash") } == (atCost, false))
    }
}
