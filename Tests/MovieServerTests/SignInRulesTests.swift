import Foundation
@testable import MovieServer
import Testing

/// The rules of signing in, each pinned where it is written: the throttle's two limits and what
/// takes a failure back, the device name the page shows, and the user codes a person may type.
@Suite("Sign-in rules")
struct SignInRulesTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("an account may fail 20 times from many addresses, an address 10 times for many accounts; then each waits out the window")
    func throttleLimits() async throws {
        let throttle = SignInThrottle(storage: MemoryStorage(catalog: .empty))
        for index in 0..<20 {
            #expect(try await throttle.signIn(account: "alice", address: "10.0.0.\(index)", now: Self.start).isCounted)
        }
        #expect(try await throttle.signIn(account: "alice", address: "10.0.1.1", now: Self.start) == .wait(seconds: 600), "the 21st from a new address")
        #expect(try await throttle.signIn(account: "Alice", address: "10.0.1.1", now: Self.start) == .wait(seconds: 600), "names are counted in any case")
        #expect(try await throttle.signIn(account: "bob", address: "10.0.1.1", now: Self.start).isCounted)
        for index in 0..<10 { _ = try await throttle.signIn(account: "user\(index)", address: "10.0.2.2", now: Self.start) }
        #expect(try await throttle.signIn(account: "carol", address: "10.0.2.2", now: Self.start + 60) == .wait(seconds: 540), "the 11th from one address")
        #expect(try await throttle.signIn(account: "carol", address: "10.0.2.2", now: Self.start + 600).isCounted, "the window has passed")
        #expect(try await throttle.signUp(address: "10.0.2.2", now: Self.start).isCounted, "sign-ups are counted apart")
    }

    @Test("a right password takes back the failure counted before its check")
    func forgiven() async throws {
        let throttle = SignInThrottle(storage: MemoryStorage(catalog: .empty), accountLimit: 2, addressLimit: 2)
        _ = try await throttle.signIn(account: "alice", address: "a", now: Self.start)
        guard case let .counted(id) = try await throttle.signIn(account: "alice", address: "a", now: Self.start) else {
            Issue.record("the second attempt is within the limit")
            return
        }
        #expect(try await throttle.signIn(account: "alice", address: "a", now: Self.start) == .wait(seconds: 600))
        try await throttle.forgive(id)
        #expect(try await throttle.signIn(account: "alice", address: "a", now: Self.start).isCounted)
    }

    @Test("a device's name: printable, no markup characters, at most 100 characters, the client's id when empty")
    func deviceNames() {
        let client = ClientCredentials(id: "marquee-dev", secret: "s")
        #expect(DeviceFlow.deviceName(String(repeating: "é", count: 150), client: client) == String(repeating: "é", count: 100))
        #expect(DeviceFlow.deviceName("lap\u{0}top\u{1B}[2J \u{202E}x", client: client) == "laptop[2J x")
        #expect(DeviceFlow.deviceName("<b>\"a\" & 'b'</b>", client: client) == "ba  b/b")
        #expect(DeviceFlow.deviceName("  \u{7} ", client: client) == "marquee-dev")
        #expect(DeviceFlow.deviceName(nil, client: client) == "marquee-dev")
    }

    @Test("a user code is typed in any case, with dashes or spaces; only eight letters of the twenty consonants are one")
    func userCodes() {
        #expect(UserCode(typed: "bcdf-ghjk")?.description == "BCDF-GHJK")
        #expect(UserCode(typed: " BC DF GH JK ")?.letters == "BCDFGHJK")
        #expect(UserCode(typed: "BCDF-GHJ") == nil)
        #expect(UserCode(typed: "BCDF-GHJA") == nil, "no vowels")
        #expect(UserCode(typed: "BCDF-GHJ1") == nil, "no digits")
        #expect(UserCode(typed: String(repeating: "-", count: 40) + "BCDFGHJK") == nil, "a long input is refused before it is read")
        let drawn = (0..<200).map { _ in UserCode.random().letters }
        #expect(drawn.allSatisfy { $0.count == 8 && $0.allSatisfy(UserCode.alphabet.contains) })
        #expect(Set(drawn).count > 190)
    }
}

extension SignInThrottle.Outcome {
    var isCounted: Bool {
        if case .counted = self { true } else { false }
    }
}
