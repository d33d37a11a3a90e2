import Foundation
import MarqueeTestSupport
import MovieServer
import MovieServerDatabases
@testable import MovieServerSQLite
import ServerTestSupport
import Testing

/// Recording database spans is a setting of each storage, not of the process: a server that traces
/// turns on its own storage's, and another storage in the same process records none.
@Suite("Database spans, a storage's setting")
struct DatabaseSpanSettingTests {
    @Test("a server that traces turns on its storage's database spans; another storage of the process stays off")
    func perStorage() async throws {
        func open() async throws -> SQLiteStorage {
            let file = TestFolders.temporary.appendingPathComponent("spans-\(UUID().uuidString).sqlite")
            return try #require(try await DatabaseLocation.sqlite(path: file.path).open(logger: quietLogger) as? SQLiteStorage)
        }
        let traced = try await open(), quiet = try await open()
        var configuration = MovieServer.Configuration(host: "127.0.0.1", port: 0, storage: traced, auth: .publicAccess, logger: quietLogger)
        configuration.tracesRequests = true
        let server = await MovieServer(configuration: configuration)
        let running = try await server.start()
        #expect(traced.spans.isOn)
        #expect(!quiet.spans.isOn)
        try await running.stop()
        await traced.close()
        await quiet.close()
    }
}
