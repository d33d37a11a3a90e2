import Foundation
import MarqueeTestSupport
import MovieServer
import MovieServerDatabases
import MovieServerPostgres
import Testing

/// `--database` and `MARQUEE_DATABASE_URL` as libpq users expect: the password from the URL,
/// `PGPASSWORD` or the password file, and nothing Marquee does not understand silently ignored.
@Suite("Database locations")
struct DatabaseLocationTests {
    static func postgres(_ text: String, _ environment: [String: String] = [:]) throws -> PostgresLocation? {
        guard case let .postgres(location) = try DatabaseLocation(parsing: text, environment: environment) else { return nil }
        return location
    }

    static func passwordFile(_ text: String, mode: Int) throws -> String {
        let file = TestFolders.temporary.appendingPathComponent("pgpass-\(UUID().uuidString)")
        try Data(text.utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file.path)
        return file.path
    }

    @Test("a password in the URL wins; else PGPASSWORD; else the first matching line of the password file")
    func findsPasswords() throws {
        let file = try Self.passwordFile("""
            # host:port:database:user:password
            db.example:5432:movies:marquee:from\\:file
            localhost:5433:*:marquee:socket-secret
            *:*:*:*:fallback
            """, mode: 0o600)
        defer { unlink(file) }
        #expect(try Self.postgres("postgres://marquee:inline@db.example/movies", ["PGPASSWORD": "env", "PGPASSFILE": file])?.password == "inline")
        #expect(try Self.postgres("postgres://marquee@db.example/movies", ["PGPASSWORD": "env", "PGPASSFILE": file])?.password == "env")
        #expect(try Self.postgres("postgres://marquee@db.example/movies", ["PGPASSFILE": file])?.password == "from:file")
        #expect(try Self.postgres("postgres://marquee@:5433/movies?host=/run/postgresql", ["PGPASSFILE": file])?.password == "socket-secret",
                "a socket connection matches 'localhost', as in libpq")
        #expect(try Self.postgres("postgres://other@db.example/movies", ["PGPASSFILE": file])?.password == "fallback")
        #expect(try Self.postgres("postgres://marquee@db.example/movies", ["HOME": "/nonexistent"])?.password == nil)
    }

    @Test("a password file others may read is ignored, as libpq ignores it")
    func ignoresReadablePasswordFiles() throws {
        let file = try Self.passwordFile("*:*:*:*:leaked\n", mode: 0o644)
        defer { unlink(file) }
        #expect(try Self.postgres("postgres://marquee@db.example/movies", ["PGPASSFILE": file])?.password == nil)
    }

    @Test("host= names a socket folder or a host; any other parameter is refused with one line, the password hidden")
    func readsParameters() throws {
        let socket = try Self.postgres("postgres://marquee@/movies?host=/run/postgresql")
        #expect(socket?.socketFolder == "/run/postgresql")
        #expect(try Self.postgres("postgres://marquee@/movies?host=db.internal&sslmode=require")?.host == "db.internal")
        let error = #expect(throws: StorageError.self) { try DatabaseLocation(parsing: "postgres://marquee:hunter2@db/movies?foo=bar", environment: [:]) }
        #expect(error?.description == "cannot use the database 'postgres://marquee:***@db/movies?foo=bar': the parameter 'foo' is not one Marquee understands (sslmode, host)")
    }
}
