import Foundation
import MovieAPI
import Movies
import NetworkTestSupport
import Testing

/// An account name from a server's token (its `sub`, stored as `login` stores it) that carries an
/// OSC title, a screen clear, a C1 CSI, a bidirectional override and a line feed: every command
/// that shows it, or may, writes it defused.
@Suite("A server's names reach the terminal defused", .timeLimit(.minutes(3)))
struct HostileNamesTests {
    static let hostile = "eve\u{1B}]0;pwned\u{07}\u{1B}[2J\u{9B}31m\u{202E}\nmarquee: forged"

    @Test("auth status, watchlist, logout and logout --everywhere, with a hostile account name (stored, and the default)")
    func hostileAccountName() async throws {
        let api = "http://127.0.0.1:\(try await closedLoopbackPort())/api/"
        let home = try TemporaryConfigHome()
        let environment = try #require(APIEnvironment(APIIdentity(baseURL: try APIBaseURL(api))))
        let credential = Credential(accessToken: "eve-access", refreshToken: "eve-refresh", issuedAt: Date(), expiresAt: Date().addingTimeInterval(3_600))
        let context = FileAPIContext(environment: environment, fileURL: home.credentialsFile, holder: .person(account: Self.hostile))
        try await context.storeSignIn(credential, account: Self.hostile)

        var outcomes: [(command: [String], output: String)] = []
        for command in [["auth", "status"], ["watchlist", "--offline"], ["logout", "--everywhere"]] {
            let outcome = try await home.marquee.run(command + ["--env", api])
            outcomes.append((command, outcome.standardOutput + outcome.standardError))
        }
        try await context.storeSignIn(credential, account: Self.hostile)
        let logout = try await home.marquee.run(["logout", "--env", api])
        outcomes.append((["logout"], logout.standardOutput + logout.standardError))

        #expect(outcomes[0].output.contains("as eve�]0;pwned��[2J�31m��marquee: forged"), "\(outcomes[0].output)")
        #expect(logout.standardOutput.contains("Signed eve�]0;pwned"), "\(logout.standardOutput)")
        for (command, output) in outcomes {
            #expect(!output.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" || $0 == "\u{9B}" || $0 == "\u{202E}" || $0 == "\r" }, "\(command): \(output)")
            #expect(!output.split(separator: "\n").contains { $0.hasPrefix("marquee: forged") }, "\(command): \(output)")
        }
    }
}
