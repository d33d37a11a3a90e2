import Foundation

/// The work of an ``EventStreamClient``, done one item at a time as its reader asks: open the
/// stream, read a chunk, parse it, hand on its events, wait, open again. Nothing runs between two
/// asks, so a reader that is slow, or stops asking, leaves the rest of the stream unread in the
/// connection, where the transport's backpressure makes the server wait.
///
/// Between two asks it holds at most the parser's line and event (``ServerSentEventLimits``) and
/// the events of the one chunk read last; a chunk is what the transport read in one go (64 KiB
/// at most with AsyncHTTPClient).
///
/// One task reads it at a time (``EventStreamClient/items(from:)`` gives it to one `AsyncStream`).
final class EventStreamReader: @unchecked Sendable {
    private enum Step {
        /// Next: say `connecting`.
        case connect
        /// Next: open the stream.
        case open
        /// Next: the stream's next event, or its end.
        case read
        /// Next: wait this long, then connect again.
        case wait(Duration)
        case done
    }

    /// One open stream, and what it was heard to say so far.
    private struct Connection {
        var body: StreamedBody.AsyncIterator
        var parser: ServerSentEventParser
        var events: [ServerSentEvent] = []
        var eventsHandedOn = 0
        var heardAny = false
        /// Why the stream ends, once it did: told after the events read before it.
        var end: String?
        var dropped = false
    }

    private let client: EventStreamClient
    private var step = Step.connect
    private var lastEventID: String?
    private var breaks = 0
    private var serverRetry: Duration?
    private var connection: Connection?

    init(client: EventStreamClient, cursor: String?) {
        self.client = client
        lastEventID = cursor
    }

    /// The next item; `nil` once the stream stopped for good or the reading task was cancelled.
    func next() async -> EventStreamClient.Item? {
        guard !Task.isCancelled else { return finish() }
        switch step {
        case .connect:
            step = .open
            return .connecting
        case .open:
            return await open()
        case .read:
            return await read()
        case let .wait(duration):
            do { try await client.sleep(duration) } catch { return finish() }
            guard !Task.isCancelled else { return finish() }
            step = .open
            return .connecting
        case .done:
            return nil
        }
    }

    private func open() async -> EventStreamClient.Item? {
        do throws(NetworkError) {
            let response = try await client.open(lastEventID)
            switch response.status.code {
            case 200 where EventStreamClient.isEventStream(response.headerFields):
                connection = Connection(body: response.body.makeAsyncIterator(), parser: ServerSentEventParser(lastEventID: lastEventID ?? "", limits: client.limits))
                step = .read
                return .connected
            case 404, 405, 501, 403, 401:
                return stop(.status(code: response.status.code, excerpt: ""))
            default:
                let asked = response.headerFields[.retryAfter].flatMap { RetryAfter.delay($0, now: Date()) }
                return reconnect(because: "the server answered \(response.status.code)", asked: asked)
            }
        } catch .cancelled {
            return finish()
        } catch let error where error.endsAStream {
            return stop(error)
        } catch {
            return reconnect(because: error.description, asked: nil)
        }
    }

    /// The next event of the open stream, reading a chunk when none is left; or, once the stream
    /// ended, broke, stalled or passed its limits, the wait before the next connection.
    private func read() async -> EventStreamClient.Item? {
        while var current = connection {
            if current.eventsHandedOn < current.events.count {
                let event = current.events[current.eventsHandedOn]
                current.eventsHandedOn += 1
                connection = current
                lastEventID = event.lastEventID
                return .event(event)
            }
            if let end = current.end {
                connection = nil
                if let retry = current.parser.retryMilliseconds { serverRetry = .milliseconds(retry) }
                if current.heardAny, !current.dropped { breaks = 0 }
                return reconnect(because: end, asked: nil)
            }
            current.events = []
            current.eventsHandedOn = 0
            do {
                if let chunk = try await Self.chunk(of: current.body, within: client.stallLimit) {
                    current.heardAny = true
                    current.events = current.parser.consume(chunk)
                    if let overflow = current.parser.overflow {
                        current.dropped = true
                        current.end = overflow.description
                    }
                } else {
                    current.end = "the server ended the stream"
                }
            } catch is Stalled {
                current.end = "the stream stayed silent for \(client.stallLimit)"
            } catch {
                guard !Task.isCancelled else { return finish() }
                current.end = (error as? NetworkError)?.description ?? "the stream broke"
            }
            connection = current
        }
        return finish()
    }

    private func reconnect(because reason: String, asked: Duration?) -> EventStreamClient.Item? {
        guard !Task.isCancelled else { return finish() }
        breaks += 1
        let wait = client.wait(after: breaks, asked: asked ?? serverRetry)
        step = .wait(wait)
        return .reconnecting(after: wait, reason: reason)
    }

    private func stop(_ error: NetworkError) -> EventStreamClient.Item {
        finish()
        return .stopped(error)
    }

    /// Lets go of the connection (which closes it) and ends the items.
    @discardableResult
    private func finish() -> EventStreamClient.Item? {
        connection = nil
        step = .done
        return nil
    }

    private struct Stalled: Error {}

    /// The next chunk of `body` (`nil` at its end), unless it stays silent past `limit`.
    private static func chunk(of body: StreamedBody.AsyncIterator, within limit: Duration) async throws -> [UInt8]? {
        try await withThrowingTaskGroup(of: [UInt8]?.self) { group in
            group.addTask { try await body.next() }
            group.addTask {
                try await Task.sleep(for: limit)
                throw Stalled()
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
    }
}
