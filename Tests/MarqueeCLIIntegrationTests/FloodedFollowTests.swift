import Foundation
import MarqueeTestSupport
import MovieAPI
import Movies
import NetworkTestSupport
import Testing

/// `marquee watchlist --follow` against a server that floods the live feed with valid events as
/// fast as it can write: the process's memory stays within its documented bound above what it
/// used once live, however much the server writes.
@Suite("The live feed flooded by a hostile server", .timeLimit(.minutes(6)))
struct FloodedFollowTests {
    /// The bound the Networking article documents: what `--follow` may hold above its size once live.
    static let bound = 32 << 20
    /// How much the server is let write first: more than the bound, so that a client that kept
    /// what it read could not stay within it.
    static let flood = 40 << 20

    @Test("valid 1 KB events as fast as the server writes: 40 MiB written, and the process grows by at most 32 MiB over its size once live")
    func floodedFollow() async throws {
        let server = try await HostileEventServer.start()
        let api = server.baseURL(for: .flood).absoluteString
        let home = try TemporaryConfigHome()
        let environment = try #require(APIEnvironment(APIIdentity(baseURL: try APIBaseURL(api))))
        let signedIn = Credential(accessToken: "alice-access", refreshToken: "alice-refresh", issuedAt: Date(), expiresAt: Date().addingTimeInterval(3_600))
        try await FileAPIContext(environment: environment, fileURL: home.credentialsFile, holder: .person(account: "alice")).storeSignIn(signedIn, account: "alice")

        let follow = try home.marquee.launch(["watchlist", "--follow", "--env", api])
        #expect(await follow.nextErrorLine(containing: "marquee: live") != nil)
        let pid = try #require(follow.processID)
        let idle = try #require(Self.residentBytes(of: pid))
        var peak = idle
        // Until the server wrote the flood, or the process passed its bound (which fails at once).
        _ = try await eventually(limit: .seconds(240)) {
            peak = max(peak, Self.residentBytes(of: pid) ?? peak)
            return server.writtenBytes >= Self.flood || peak - idle > Self.bound
        }
        #expect(server.writtenBytes >= Self.flood, "the flood was read: \(server.writtenBytes) bytes written")
        #expect(peak - idle <= Self.bound, "--follow grew by \(peak - idle) bytes over \(idle) once live, with \(server.writtenBytes) bytes written")
        _ = await follow.signal(SIGINT)
        await server.stop()
    }

    /// The resident memory of process `pid`, from `/proc`.
    static func residentBytes(of pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "") else { return nil }
        return kilobytes * 1024
    }
}
