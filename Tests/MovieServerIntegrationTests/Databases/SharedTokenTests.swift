import Foundation
import MarqueeTestSupport
import MovieServer
import MovieServerDatabases
import ServerTestSupport
import Testing

extension ServerDatabaseTests {
    /// Two server instances on one database, as behind a load balancer: each has its own signing
    /// key and connection pool, and they share only the refresh tokens in the database.
    @Suite("Refresh tokens shared by two instances")
    struct SharedTokenTests {
        static let form = [("Content-Type", "application/x-www-form-urlencoded")]
        static let clientGrant = "grant_type=client_credentials&client_id=marquee-dev&client_secret=marquee-dev-secret"

        @Test("a refresh token issued by A is redeemed at B, and redeeming it again at A fails", arguments: Backend.databases)
        func redeemedAcrossInstances(backend: Backend) async throws {
            try await backend.withTwoInstances { first, second in
                let issued = try await first.get("/api/auth/token", method: .POST, headers: Self.form, body: Self.clientGrant)
                let token = try #require(issued.json?["refresh_token"] as? String)

                let redeemed = try await second.get("/api/auth/token", method: .POST, headers: Self.form, body: Self.refreshGrant(token))
                #expect(redeemed.status == 200)
                let accessToken = try #require(redeemed.json?["access_token"] as? String)
                #expect(try await second.get("/api/movies/1", headers: [("Authorization", "Bearer \(accessToken)")]).status == 200)

                let reused = try await first.get("/api/auth/token", method: .POST, headers: Self.form, body: Self.refreshGrant(token))
                #expect(reused.status == 400)
                #expect(reused.json?["error"] as? String == "invalid_grant")
                #expect(first.server.grants == GrantLedger.Counts(clientCredentials: 1, refreshToken: 0, refused: 1))
                #expect(second.server.grants == GrantLedger.Counts(clientCredentials: 0, refreshToken: 1, refused: 0))
            }
        }

        @Test("50 concurrent redemptions of one token, split over A and B, give exactly one success", arguments: Backend.databases)
        func concurrentRedemptions(backend: Backend) async throws {
            try await backend.withTwoInstances { first, second in
                let issued = try await first.get("/api/auth/token", method: .POST, headers: Self.form, body: Self.clientGrant)
                let token = try #require(issued.json?["refresh_token"] as? String)
                let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                    for index in 0..<50 {
                        let instance = index.isMultiple(of: 2) ? first : second
                        group.addTask {
                            // Counted, not timed: on a loaded machine 50 secret checks and serialized writes take long.
                            try await instance.get("/api/auth/token", method: .POST, headers: Self.form, body: Self.refreshGrant(token), timeout: 120).status
                        }
                    }
                    return try await group.reduce(into: [Int]()) { $0.append($1) }
                }
                #expect(statuses.count == 50)
                #expect(statuses.filter { $0 == 200 }.count == 1)
                #expect(statuses.filter { $0 == 400 }.count == 49)
                let granted = first.server.grants.refreshToken + second.server.grants.refreshToken
                let refused = first.server.grants.refused + second.server.grants.refused
                #expect(granted == 1)
                #expect(refused == 49)
            }
        }

        static func refreshGrant(_ token: String) -> String {
            "grant_type=refresh_token&refresh_token=\(token)&client_id=marquee-dev&client_secret=marquee-dev-secret"
        }
    }
}

extension Backend {
    /// Runs `body` with two servers requiring tokens, each opening the same new database on its
    /// own (as two processes would), each with its own random signing key.
    func withTwoInstances<Result>(
        auth: () -> AuthConfiguration = { AuthConfiguration() },
        _ body: (ServerClient, ServerClient) async throws -> Result
    ) async throws -> Result {
        let location = try await makeLocation()
        let firstStorage = try await location.open(logger: quietLogger)
        let secondStorage: any CatalogImporting
        do {
            _ = try await firstStorage.importMovies(try Catalog.reference().movies, batchSize: 100) { _ in }
            secondStorage = try await location.open(logger: quietLogger)
        } catch {
            await firstStorage.close()
            throw error
        }
        return try await finally(
            try await withServerClient(auth: auth(), storage: firstStorage) { first in
                try await withServerClient(auth: auth(), storage: secondStorage) { second in
                    try await body(first, second)
                }
            }
        ) {
            await secondStorage.close()
            await firstStorage.close()
        }
    }
}
