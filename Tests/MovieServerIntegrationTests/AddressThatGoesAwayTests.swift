import NIOCore
import NIOPosix
import NetworkTestSupport
import ServerTestSupport
import Testing

/// The address the offline tests use for a server that went away: it must refuse connections and
/// keep its port, or a server another test starts could answer there in its place.
@Suite("An address that goes away")
struct AddressThatGoesAwayTests {
    @Test("it relays to the server until it goes away; then connections are refused and no other server can listen on its port")
    func refusesAndKeepsItsPort() async throws {
        try await withMovieServer { server in
            let address = try await AddressThatGoesAway.start(to: server.port)
            let relayed = try await RawConnection.exchange(port: address.port, "GET /api/movies/6 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(relayed.status == 200)

            try await address.goAway()
            await #expect(throws: (any Error).self, "connections are refused") {
                try await RawConnection.open(port: address.port)
            }
            await #expect(throws: (any Error).self, "the port is still held") {
                let intruder = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                    .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                    .bind(host: "127.0.0.1", port: address.port)
                    .get()
                try await intruder.close()
            }
        }
    }
}
