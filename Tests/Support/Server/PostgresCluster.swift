import Foundation
import MarqueeTestSupport
import NetworkTestSupport
import PostgresNIO
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing

/// A throwaway PostgreSQL cluster for tests: `initdb` into a temporary folder (as the
/// `postgres` user when the tests run as root), `pg_ctl` on a free loopback port with its socket
/// in that folder, stopped and removed by ``stop()``.
public final class PostgresCluster: Sendable {
    /// The cluster of the suite marked `.postgresCluster` that the current test runs in.
    @TaskLocal public static var current: PostgresCluster?

    public let folder: URL
    public let port: Int
    private let binaries: String
    private let owner: String?
    private let databaseCount = LockedCounter()

    private init(folder: URL, port: Int, binaries: String, owner: String?) {
        self.folder = folder
        self.port = port
        self.binaries = binaries
        self.owner = owner
    }

    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String

        public init(description: String) {
            self.description = description
        }
    }

    /// Creates and starts a cluster; PostgreSQL must be installed (`scripts/install-system-deps`).
    public static func start() async throws -> PostgresCluster {
        let binaries = try binaryFolder()
        let folder = TestFolders.temporary.appendingPathComponent("marquee-pg-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let owner: String? = geteuid() == 0 ? "postgres" : nil
        if owner != nil { try await ToolProcess.run("/bin/chown", ["postgres", folder.path]) }
        try await ToolProcess.run("\(binaries)/initdb", ["-D", "\(folder.path)/data", "-U", "marquee", "--auth=trust", "-E", "UTF8", "--no-sync"], as: owner)
        // The port is free when chosen, but another process may take it before the server binds
        // it: a start that fails is tried again on another port.
        var attempt = 0
        while true {
            attempt += 1
            let cluster = PostgresCluster(folder: folder, port: try freeLoopbackPort(), binaries: binaries, owner: owner)
            do {
                try await cluster.resume()
                return cluster
            } catch where attempt < 5 {
                continue
            } catch {
                await cluster.stop()
                throw error
            }
        }
    }

    /// Starts the server (again) on its port, with its data as it was left.
    public func resume() async throws {
        try await ToolProcess.run("\(binaries)/pg_ctl", [
            "-D", dataFolder, "-l", "\(folder.path)/server.log", "-w", "-t", "60",
            "-o", "-p \(port) -k \(folder.path) -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200",
            "start",
        ], as: owner)
    }

    /// Stops the server as `pg_ctl stop -m mode` does (`fast` or `immediate`), keeping its data.
    public func halt(mode: String) async throws {
        try await ToolProcess.run("\(binaries)/pg_ctl", ["-D", dataFolder, "-m", mode, "-w", "stop"], as: owner)
    }

    /// A new, empty database in the cluster, as a `postgres://` URL.
    public func makeDatabase() async throws -> String {
        let name = "test_\(databaseCount.next())"
        try await ToolProcess.run("\(binaries)/createdb", ["-h", "127.0.0.1", "-p", "\(port)", "-U", "marquee", name])
        return url(database: name)
    }

    public func url(database: String) -> String {
        "postgres://marquee@127.0.0.1:\(port)/\(database)"
    }

    /// Drops the database `url` names, closing its sessions first, as an operator's mistake or a
    /// failover would.
    public func dropDatabase(_ url: String) async throws {
        let name = String(url.split(separator: "/").last ?? "")
        try await ToolProcess.run("\(binaries)/dropdb", ["-h", "127.0.0.1", "-p", "\(port)", "-U", "marquee", "--force", name])
    }

    /// A session of its own on the database `url` names, for a test to lock tables or read
    /// `pg_stat_activity`; closed after `body`.
    public func withSession<Result>(on url: String, _ body: (PostgresConnection) async throws -> Result) async throws -> Result {
        let name = String(url.split(separator: "/").last ?? "")
        let configuration = PostgresConnection.Configuration(
            host: "127.0.0.1", port: port, username: "marquee", password: nil, database: name, tls: .disable
        )
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: quietLogger)
        return try await finally(try await body(connection)) { try? await connection.close() }
    }

    /// Stops the server at once and removes its folder.
    public func stop() async {
        _ = try? await ToolProcess.run("\(binaries)/pg_ctl", ["-D", dataFolder, "-m", "immediate", "-w", "stop"], as: owner)
        try? FileManager.default.removeItem(at: folder)
    }

    private var dataFolder: String { folder.appendingPathComponent("data").path }

    private static func binaryFolder() throws -> String {
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        guard let newest = versions.compactMap(Int.init).max() else {
            throw Unavailable(description: "PostgreSQL is not installed under \(root): run scripts/install-system-deps")
        }
        return "\(root)/\(newest)/bin"
    }

    /// A loopback port that was free a moment ago, for a server this test starts to bind (and
    /// may stop and start again on it). Drawn below the kernel's ephemeral range: a port the
    /// kernel gives out (to a client's connection, or to a server bound to port 0) would be taken
    /// by the many connections of tests running beside it, and a restart on it would fail.
    public static func freeLoopbackPort() throws -> Int {
        let ephemeralStart = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8))
            .flatMap { $0.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) } } ?? 32_768
        if ephemeralStart > 11_000 {
            for _ in 0..<500 {
                let port = Int.random(in: 10_000..<ephemeralStart)
                if let bound = bindLoopback(port: port) { return bound }
            }
        }
        guard let port = bindLoopback(port: 0) else { throw Unavailable(description: "no free loopback port: errno \(errno)") }
        return port
    }

    /// The port bound on 127.0.0.1 (as a server binds it, reusing an address in TIME_WAIT), then
    /// let go; `nil` when it is taken.
    private static func bindLoopback(port: Int) -> Int? {
        let descriptor = socket(AF_INET, PortableSockets.stream, 0)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var reuse: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                PortableSockets.bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
            }
        }
        return bound ? Int(UInt16(bigEndian: address.sin_port)) : nil
    }
}

/// Gives a suite a throwaway PostgreSQL cluster, in ``PostgresCluster/current``, started before
/// its first test and stopped after its last, whatever happened.
public struct PostgresClusterTrait: SuiteTrait, TestScoping {
    public var isRecursive: Bool { false }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let cluster = try await PostgresCluster.start()
        try await finally(try await PostgresCluster.$current.withValue(cluster) { try await function() }) { await cluster.stop() }
    }
}

extension Trait where Self == PostgresClusterTrait {
    /// A throwaway PostgreSQL cluster for the suite's tests.
    public static var postgresCluster: Self { Self() }
}

extension PostgresCluster {
    /// The suite's cluster; a test outside a `.postgresCluster` suite fails here.
    public static func required() throws -> PostgresCluster {
        guard let current else { throw Unavailable(description: "the suite is not marked .postgresCluster") }
        return current
    }
}

private final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
}
