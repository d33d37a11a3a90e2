import Foundation
import GRDB
import MarqueeTestSupport
import MovieStore
import Testing

/// A `--database` file that is not Marquee's is refused by `serve` and `catalog import` without
/// being changed: same bytes, same mode, no journal or WAL files beside it.
@Suite("Refused databases stay untouched")
struct RefusedDatabaseTests {
    let marquee = MarqueeProcess()

    static func folder() throws -> URL {
        let folder = TestFolders.temporary.appendingPathComponent("marquee-refused-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The whole file and its mode: compared exactly, a stronger check than any digest.
    static func digest(_ url: URL) throws -> (Data, Int) {
        let mode = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int ?? -1
        return (try Data(contentsOf: url), mode)
    }

    /// Files that are not a Marquee server database, each made in `folder`, with what the refusal says.
    static func foreignFiles(in folder: URL) throws -> [(URL, String)] {
        let app = folder.appendingPathComponent("app.db")
        let queue = try DatabaseQueue(path: app.path)
        try queue.write { try $0.execute(sql: "CREATE TABLE users (id INTEGER PRIMARY KEY); INSERT INTO users VALUES (7)") }
        try queue.close()

        let grdbApp = folder.appendingPathComponent("grdb-app.db")
        let other = try DatabaseQueue(path: grdbApp.path)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { try $0.execute(sql: "CREATE TABLE movie (id INTEGER PRIMARY KEY, title TEXT)") }
        try migrator.migrate(other)
        try other.close()

        let store = folder.appendingPathComponent("movies.sqlite")
        _ = try MovieStore(url: store)

        let text = folder.appendingPathComponent("notes.txt")
        try Data("not a database\n".utf8).write(to: text)
        return [
            (app, "it holds other tables (users) and no Marquee schema"),
            (grdbApp, "it is another program's database, or a Marquee client store"),
            (store, "it is another program's database, or a Marquee client store"),
            (text, "it is not a SQLite database"),
        ]
    }

    @Test("another program's database, a client store and a text file are refused by serve and catalog import, byte for byte unchanged")
    func refusesForeignFilesUntouched() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let catalog = folder.appendingPathComponent("catalog.json")
        try Data("[]".utf8).write(to: catalog)
        for (file, reason) in try Self.foreignFiles(in: folder) {
            let before = try Self.digest(file)
            let siblingsBefore = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            for arguments in [["serve", "--port", "0", "--database", "sqlite:\(file.path)"], ["catalog", "import", catalog.path, "--database", file.path]] {
                let outcome = try await marquee.run(arguments)
                #expect(outcome.status != 0, "\(arguments)")
                #expect(outcome.errorLines.count == 1, "\(arguments): \(outcome.standardError)")
                #expect(outcome.standardError.contains("is not a Marquee server database: \(reason)"), "\(arguments): \(outcome.standardError)")
                #expect(try Self.digest(file) == before, "\(file.lastPathComponent) changed")
                #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == siblingsBefore, "\(arguments): no -wal, -shm or -journal is left")
            }
        }
    }

    @Test("a device, a FIFO and a folder are refused without creating anything beside them")
    func refusesNonRegularFiles() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("pipe")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let cases = [("/dev/null", "it is not a regular file"), (fifo.path, "it is not a regular file"), (folder.path, "it is a folder")]
        for (path, reason) in cases {
            let outcome = try await marquee.run(["serve", "--port", "0", "--database", "sqlite:\(path)"], timeLimit: .seconds(30))
            #expect(outcome.status != 0, "\(path)")
            #expect(outcome.errorLines.count == 1, "\(path): \(outcome.standardError)")
            #expect(outcome.standardError.contains(reason), "\(path): \(outcome.standardError)")
        }
        #expect(!FileManager.default.fileExists(atPath: "/dev/null-journal"))
        #expect(!FileManager.default.fileExists(atPath: "/dev/null-wal"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["pipe"])
    }

    @Test("an empty file and a missing path are made into a server database")
    func acceptsEmptyFiles() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let catalog = folder.appendingPathComponent("catalog.json")
        try Data("[]".utf8).write(to: catalog)
        let empty = folder.appendingPathComponent("empty.sqlite")
        #expect(FileManager.default.createFile(atPath: empty.path, contents: nil))
        for path in [empty.path, folder.appendingPathComponent("new.sqlite").path] {
            let outcome = try await marquee.run(["catalog", "import", catalog.path, "--database", path])
            #expect(outcome.status == 0, "\(path): \(outcome.standardError)")
            let again = try await marquee.run(["catalog", "import", catalog.path, "--database", path])
            #expect(again.status == 0, "a server database is opened again: \(again.standardError)")
        }
    }
}
