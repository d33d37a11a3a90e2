import Foundation
import MarqueeTestSupport
import NetworkTestSupport
@testable import Networking
import Testing

/// The event-stream client against a real hostile server on loopback: a stream that never ends a
/// line or an event is dropped at its limit and reopened, and a server that asks for no wait gets
/// no tight loop. The waits are counted, not slept: the time waited is the sum of what the client
/// asked its sleeper for.
@Suite("Event streams from a hostile server", .timeLimit(.minutes(2)))
struct HostileEventStreamTests {
    func client(_ server: HostileEventServer, _ behaviour: HostileEventServer.Behaviour, transport: AsyncHTTPClientTransport) -> EventStreamClient {
        let api = APIClient(baseURL: server.baseURL(for: behaviour), transport: transport)
        var client = EventStreamClient { _ throws(NetworkError) in
            try await api.openStream(Endpoint(path: ["events"], headerFields: [.accept: "text/event-stream"], timeout: .seconds(10)))
        }
        client.random = { 0.5 }
        return client
    }

    @Test("a data: line without an end: dropped at 64 KiB, the status says why, the connection is closed, and the stream is opened again", arguments: [
        (HostileEventServer.Behaviour.endlessLine, "the server sent a line over 64 KiB"),
        (.endlessDataLines, "the server sent an event over 1 MiB"),
    ])
    func endlessStreamIsDropped(behaviour: HostileEventServer.Behaviour, reason: String) async throws {
        let server = try await HostileEventServer.start()
        let waits = RecordedWaits()
        try await withTransport { transport in
            let items = await client(server, behaviour, transport: transport).counting(waits: waits).items { items in
                items.filter { $0 == .connected }.count == 2 || items.count > 20
            }
            let ready = EventStreamClient.Item.event(ServerSentEvent(lastEventID: "1", type: "ready", data: "{}"))
            #expect(items == [.connecting, .connected, ready, .reconnecting(after: .milliseconds(1_500), reason: reason), .connecting, .connected])
            #expect(waits.all == [.milliseconds(1_500)])
            let closed = try await eventually(limit: .seconds(10)) { server.closedConnections == 2 }
            #expect(closed, "the dropped stream's connection was closed, and the second once the reader stopped")
            #expect(server.connections == 2)
        }
        await server.stop()
    }

    @Test("retry: 0, Retry-After: 0 or -5, from a server that ends every stream at once: at most one connection a second of waiting, never the tight loop", arguments: [
        HostileEventServer.Behaviour.retryZero, .retryAfterZero, .retryAfterNegative,
    ])
    func noTightLoop(behaviour: HostileEventServer.Behaviour) async throws {
        let server = try await HostileEventServer.start()
        let waits = RecordedWaits()
        try await withTransport { transport in
            let window = Duration.seconds(5)
            let items = await client(server, behaviour, transport: transport).counting(waits: waits, window: window).items { items in
                let waited = items.reduce(Duration.zero) { total, item in
                    if case let .reconnecting(delay, _) = item { total + delay } else { total }
                }
                return waited >= window || items.filter { $0 == .connecting }.count >= 50
            }
            let connections = items.filter { $0 == .connecting }.count
            #expect(connections <= 5, "\(connections) connections in \(waits.all) of waiting")
            #expect(waits.all.allSatisfy { $0 >= .seconds(1) })
            #expect(server.connections == connections)
        }
        await server.stop()
    }
}
