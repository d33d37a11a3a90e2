import Foundation
import MarqueeTestSupport
import NetworkTestSupport
@testable import Networking
import Testing

/// A hostile server floods the live feed while its reader does not ask for more: the client reads
/// the connection only as its reader asks, so the server can write no more than what the sockets'
/// buffers and AsyncHTTPClient's own few chunks take, and then waits. Checked by the bytes the
/// server managed to write, with the reader paused; then the reader goes on, and the stream with it.
@Suite("Event streams keep backpressure", .timeLimit(.minutes(3)))
struct EventStreamBackpressureTests {
    /// The most a paused reader may let the server write: the loopback sockets' buffers (a few
    /// MiB each way at most) and AsyncHTTPClient's chunks, far below what an unbounded copy takes.
    static let pausedBound = 16 << 20

    func items(_ server: HostileEventServer, _ behaviour: HostileEventServer.Behaviour, transport: AsyncHTTPClientTransport) -> AsyncStream<EventStreamClient.Item> {
        let api = APIClient(baseURL: server.baseURL(for: behaviour), transport: transport)
        var client = EventStreamClient { _ throws(NetworkError) in
            try await api.openStream(Endpoint(path: ["events"], headerFields: [.accept: "text/event-stream"], timeout: .seconds(10)))
        }
        client.random = { 0.5 }
        return client.items(from: nil)
    }

    static let ready = EventStreamClient.Item.event(ServerSentEvent(lastEventID: "1", type: "ready", data: "{}"))

    @Test("valid 1 KB events as fast as the server can write, the reader paused after the first: the server is held to the sockets' buffers, and the events go on when the reader does")
    func floodWhilePaused() async throws {
        let server = try await HostileEventServer.start()
        try await withTransport { transport in
            var reader = items(server, .flood, transport: transport).makeAsyncIterator()
            #expect(await reader.next() == .connecting)
            #expect(await reader.next() == .connected)
            #expect(await reader.next() == Self.ready)
            let paused = try await settled({ server.writtenBytes }, passing: Self.pausedBound)
            #expect(paused <= Self.pausedBound, "the server wrote \(paused) bytes to a paused reader")

            let flood = EventStreamClient.Item.event(ServerSentEvent(lastEventID: "2", type: "watchlist", data: String(HostileEventServer.floodEvent.split(separator: "\n")[2].dropFirst(6))))
            for _ in 0..<(2 * Self.pausedBound / HostileEventServer.floodEvent.utf8.count) {
                let item = await reader.next()
                guard item == flood else {
                    Issue.record("\(String(describing: item).prefix(200))")
                    break
                }
            }
            #expect(server.writtenBytes > paused, "the reader going on let the server write again")
        }
        await server.stop()
    }

    @Test("data: lines without end, the reader paused: the server is held to the sockets' buffers; when the reader goes on, the event's limit drops the stream, not a flood's worth later")
    func endlessDataLinesWhilePaused() async throws {
        let server = try await HostileEventServer.start()
        try await withTransport { transport in
            var reader = items(server, .endlessDataLines, transport: transport).makeAsyncIterator()
            #expect(await reader.next() == .connecting)
            #expect(await reader.next() == .connected)
            #expect(await reader.next() == Self.ready)
            let paused = try await settled({ server.writtenBytes }, passing: Self.pausedBound)
            #expect(paused <= Self.pausedBound, "the server wrote \(paused) bytes to a paused reader")

            #expect(await reader.next() == .reconnecting(after: .milliseconds(1_500), reason: "the server sent an event over 1 MiB"))
            let dropped = server.writtenBytes
            #expect(dropped <= Self.pausedBound + (1 << 20) + (64 << 10), "the server wrote \(dropped) bytes before the limit dropped the stream")
        }
        await server.stop()
    }
}
