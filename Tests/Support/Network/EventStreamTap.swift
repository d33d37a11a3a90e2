import AsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import Networking

/// A test's view of one `GET /api/events` stream: the events read so far, parsed by Networking's
/// parser, and a wait for the ones a test expects. Closing it cancels the request.
public final class EventStreamTap: Sendable {
    public let status: Int
    public let headers: [(String, String)]
    private let received: NIOLockedValueBox<[ServerSentEvent]>
    private let ended: NIOLockedValueBox<Bool>
    private let reading: Task<Void, Never>

    /// Opens the stream at `url` with `headers` (a token, `Last-Event-ID`), on a client of its
    /// own, and returns once the answer's head arrived.
    public static func open(_ url: URL, headers: [(String, String)] = [], timeout: Duration = .seconds(30)) async throws -> EventStreamTap {
        var request = HTTPClientRequest(url: url.absoluteString)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let (opened, continuation) = AsyncThrowingStream<(Int, [(String, String)], HTTPClientResponse.Body?), any Error>.makeStream()
        let received = NIOLockedValueBox<[ServerSentEvent]>([])
        let ended = NIOLockedValueBox(false)
        // A client of its own: the shared one holds at most 8 connections to a host.
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let reading = Task {
            defer {
                ended.withLockedValue { $0 = true }
                client.shutdown { _ in }
            }
            do {
                let response = try await client.execute(request, timeout: .seconds(Int64(timeout.components.seconds)))
                continuation.yield((Int(response.status.code), response.headers.map { ($0.name, $0.value) }, nil))
                continuation.finish()
                var parser = ServerSentEventParser()
                for try await buffer in response.body {
                    let events = parser.consume(buffer.readableBytesView)
                    received.withLockedValue { $0 += events }
                }
            } catch {
                continuation.finish(throwing: error)
            }
        }
        var iterator = opened.makeAsyncIterator()
        guard let (status, responseHeaders, _) = try await iterator.next() else { throw CancellationError() }
        return EventStreamTap(status: status, headers: responseHeaders, received: received, ended: ended, reading: reading)
    }

    private init(status: Int, headers: [(String, String)], received: NIOLockedValueBox<[ServerSentEvent]>, ended: NIOLockedValueBox<Bool>, reading: Task<Void, Never>) {
        self.status = status
        self.headers = headers
        self.reading = reading
        self.received = received
        self.ended = ended
    }

    /// Every event read so far.
    public var events: [ServerSentEvent] { received.withLockedValue { $0 } }

    /// Whether the server ended the stream (or the connection broke).
    public var hasEnded: Bool { ended.withLockedValue { $0 } }

    /// Waits until `done` holds for the events read, or the stream ends, or `limit` passes; returns them.
    @discardableResult
    public func wait(limit: Duration = .seconds(20), until done: ([ServerSentEvent]) -> Bool) async throws -> [ServerSentEvent] {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            let events = self.events
            if done(events) || hasEnded { return events }
            try await Task.sleep(for: .milliseconds(10))
        }
        return events
    }

    /// Waits for the server to end the stream; true if it did within `limit`.
    public func waitForEnd(limit: Duration = .seconds(20)) async throws -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if hasEnded { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    public func close() {
        reading.cancel()
    }
}
