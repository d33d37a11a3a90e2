@testable import MovieServer
import Testing

/// What a graceful shutdown waits for: the connections that are event streams, until they close.
@Suite("Stream connections at shutdown", .timeLimit(.minutes(2)))
struct StreamConnectionsTests {
    @Test("the wait ends at its limit while a stream connection is open, and at once when none is")
    func waitsForOpenConnections() async {
        let connections = StreamConnections()
        #expect(await connections.waitUntilAllClosed(atMost: .seconds(30)), "none open: at once")
        connections.opened()
        let started = ContinuousClock.now
        #expect(await !connections.waitUntilAllClosed(atMost: .milliseconds(200)))
        #expect(ContinuousClock.now - started >= .milliseconds(190))
        connections.closed()
        #expect(connections.count == 0)
    }

    @Test("200 connections closed by as many tasks while a shutdown waits: every close is counted, and the wait ends when the last closes")
    func manyTasks() async {
        let connections = StreamConnections()
        for _ in 0..<200 { connections.opened() }
        async let waited = connections.waitUntilAllClosed(atMost: .seconds(60))
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<199 { group.addTask { connections.closed() } }
        }
        #expect(connections.count == 1)
        let lastClose = ContinuousClock.now
        connections.closed()
        #expect(await waited)
        #expect(ContinuousClock.now - lastClose < .seconds(30), "the last close ended the wait, not its limit")
        #expect(connections.count == 0)
    }
}
