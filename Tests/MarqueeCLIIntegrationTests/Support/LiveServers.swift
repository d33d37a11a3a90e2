import Foundation
import MarqueeTestSupport
import MovieServer
import Movies
import ServerTestSupport
import Testing

/// `marquee serve` processes for the live-feed tests: a server on a database file, started again
/// on the same file.
enum LiveServers {
    /// `marquee serve --database` (its signing key kept in the database), and the port it listens on.
    static func serve(_ marquee: MarqueeProcess, _ database: String, port: Int = 0, extra: [String] = []) async throws -> (process: ChildProcess, port: Int) {
        try await marquee.serve(["--port", "\(port)", "--database", database, "--drain-delay", "0"] + extra)
    }

    /// A new SQLite file holding the reference catalogue.
    static func database() async throws -> String {
        let folder = TestFolders.temporary.appendingPathComponent("live-restart-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let catalog = folder.appendingPathComponent("catalog.json")
        try JSONEncoder().encode(try Catalog.reference().movies).write(to: catalog)
        let database = folder.appendingPathComponent("server.sqlite").path
        let imported = try await MarqueeProcess().run(["catalog", "import", catalog.path, "--database", database])
        #expect(imported.status == 0, "\(imported.standardError)")
        return database
    }
}
