import Foundation
import MovieServer
import NIOConcurrencyHelpers
import Testing

/// bcrypt as the server uses it: right and wrong passwords, an unknown account as slow as a wrong
/// password, and a bounded queue that says "busy" instead of growing.
@Suite("Password hashing")
struct PasswordHasherTests {
    @Test("a hash verifies its password only; no hash (no account) never verifies")
    func verifies() async throws {
        let hasher = PasswordHasher(cost: 4)
        let hash = try await hasher.hash("correct horse")
        #expect(hash.hasPrefix("$2b$04$") || hash.hasPrefix("$2a$04$") || hash.hasPrefix("$2y$04$"), "\(hash)")
        #expect(try await hasher.verify("correct horse", hash: hash))
        #expect(try await !hasher.verify("correct horsE", hash: hash))
        #expect(try await !hasher.verify("correct horse", hash: nil))
        #expect(try await hasher.hash("correct horse") != hash, "a new salt each time")
    }

    @Test("with room for one waiting check, 12 at once: some are told busy, every other is answered rightly")
    func boundedQueue() async throws {
        let hasher = PasswordHasher(cost: 9, maximumWaiting: 1)
        let hash = try await hasher.hash("right")
        let outcomes = await withTaskGroup(of: String.self) { group in
            for index in 0..<12 {
                group.addTask {
                    do { return try await hasher.verify(index.isMultiple(of: 2) ? "right" : "wrong", hash: hash) == index.isMultiple(of: 2) ? "correct" : "incorrect" } catch is PasswordHasher.Busy { return "busy" } catch { return "\(error)" }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.contains("busy"))
        #expect(outcomes.allSatisfy { $0 == "busy" || $0 == "correct" }, "\(outcomes)")
        #expect(outcomes.filter { $0 == "correct" }.count >= 1)
    }
}
