import Foundation
import MarqueeTestSupport
import MovieAPI
import MovieServer
import NetworkTestSupport
import ServerTestSupport
import Testing

/// Signing a person in from the command line in a test: the server's auth configuration, and
/// `marquee login` with its code approved on the sign-in page.
enum LoginFlow {
    static func auth(clients: [ClientCredentials] = [.development]) -> AuthConfiguration {
        var auth = AuthConfiguration(client: clients[0], otherClients: Array(clients.dropFirst()))
        auth.passwordHashCost = 4
        return auth
    }

    /// Runs `marquee login` and approves its code on the page as `name` (signing up first, or in).
    static func login(_ marquee: MarqueeProcess, api: String, port: Int, as name: String, signUp: Bool = true, approve: Bool = true) async throws -> (status: Int32, outcome: String?) {
        let process = try marquee.launch(["login", "--env", api, "--device-name", "test terminal"])
        let instruction = try #require(await process.nextOutputLine(containing: "enter the code"))
        let code = try #require(instruction.firstMatch(of: /the code ([A-Z]{4}-[A-Z]{4})/)?.1)
        let complete = try #require(await process.nextOutputLine(containing: "?user_code="))
        #expect(complete.contains("?user_code=\(code)"))
        let page = PageClient(port: port)
        let decided = try await page.decide(String(code), as: name, signUp: signUp, approve: approve)
        #expect(decided.status == 200, "\(page.history.joined(separator: ", ")): \(page.lastPage.prefix(400))")
        guard decided.status == 200 else {
            _ = await process.signal(SIGKILL)
            return (-1, nil)
        }
        let outcome = approve ? await process.nextOutputLine(containing: "Signed in to") : await process.nextErrorLine(containing: "marquee:")
        let status = await process.waitForExit(within: .seconds(60))
        return (status, outcome)
    }
}
