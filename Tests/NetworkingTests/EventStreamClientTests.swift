import HTTPTypes
import MarqueeTestSupport
@testable import Networking
import Synchronization
import Testing

/// The order of what an event stream's reader is told across a refused attempt and a good one.
@Suite("Event stream client")
struct EventStreamClientTests {
    @Test("each attempt says connecting, so a status line does not keep 'reconnecting' through the attempt; the cursor is sent again")
    func connectingBeforeEachAttempt() async throws {
        let attempts = Mutex<[String?]>([])
        var client = EventStreamClient { lastEventID throws(NetworkError) in
            let number = attempts.withLock { attempts in
                attempts.append(lastEventID)
                return attempts.count
            }
            if number == 1 {
                return StreamedResponse(status: .serviceUnavailable, headerFields: [:], body: AsyncThrowingStream { $0.finish() })
            }
            var fields = HTTPFields()
            fields[.contentType] = "text/event-stream"
            let body = AsyncThrowingStream<[UInt8], any Error> { continuation in
                continuation.yield(Array("id: 8\nevent: catalog\ndata: {}\n\n".utf8))
            }
            return StreamedResponse(status: .ok, headerFields: fields, body: body)
        }
        client.shortestWait = .milliseconds(20)
        client.random = { 0.5 }
        var items: [EventStreamClient.Item] = []
        for await item in client.items(from: "7") {
            items.append(item)
            if items.count == 5 { break }
        }
        #expect(items == [
            .connecting,
            .reconnecting(after: .milliseconds(30), reason: "the server answered 503"),
            .connecting,
            .connected,
            .event(ServerSentEvent(lastEventID: "8", type: "catalog", data: "{}")),
        ])
        #expect(attempts.withLock { $0 } == ["7", "7"])
    }

    /// A stream answer whose body is `text`, then its end.
    static func stream(_ text: String) -> StreamedResponse {
        var fields = HTTPFields()
        fields[.contentType] = "text/event-stream"
        return StreamedResponse(status: .ok, headerFields: fields, body: AsyncThrowingStream { continuation in
            continuation.yield(Array(text.utf8))
            continuation.finish()
        })
    }

    static func unavailable(retryAfter: String) -> StreamedResponse {
        StreamedResponse(status: .serviceUnavailable, headerFields: [.retryAfter: retryAfter], body: AsyncThrowingStream { $0.finish() })
    }

    /// The first `count` waits of `client` (each recorded, none slept), and their reasons, as the
    /// items told them. A wait is waited when the item after it is asked for: the items are read
    /// up to the `connecting` that follows the last wait.
    static func waits(of client: EventStreamClient, count: Int) async -> (waits: [Duration], reasons: [String]) {
        let recorded = RecordedWaits()
        let items = await client.counting(waits: recorded, upTo: count + 1).items { items in
            items.last == .connecting && items.filter { if case .reconnecting = $0 { true } else { false } }.count == count
        }
        let told = items.compactMap { item -> (Duration, String)? in
            if case let .reconnecting(delay, reason) = item { (delay, reason) } else { nil }
        }
        #expect(recorded.all == told.map(\.0), "each wait told is the wait slept")
        return (told.map(\.0), told.map(\.1))
    }

    @Test("equal jitter: between half and all of a ceiling that is twice the base at the first break and doubles, at most a minute; the base is at least 1 s, whatever the server asked")
    func waits() {
        var client = EventStreamClient { _ throws(NetworkError) in throw .cancelled }
        for (random, expected) in [(0.0, [1.0, 2, 4, 8, 16, 30, 30]), (0.5, [1.5, 3, 6, 12, 24, 45, 45]), (0.9999, [2.0, 4, 8, 16, 32, 60, 60])] {
            client.random = { random }
            let waits = [1, 2, 3, 4, 5, 6, 1_000].map { client.wait(after: $0, asked: nil) }
            #expect(waits == expected.map { .milliseconds(Int64($0 * 1_000)) }, "random \(random)")
        }
        client.random = { 0.5 }
        #expect(client.wait(after: 1, asked: .zero) == .milliseconds(1_500), "retry: 0 is the floor")
        #expect(client.wait(after: 1, asked: .milliseconds(1)) == .milliseconds(1_500))
        #expect(client.wait(after: 1, asked: .seconds(-5)) == .milliseconds(1_500))
        #expect(client.wait(after: 1, asked: .seconds(5)) == .milliseconds(7_500), "a longer retry is respected")
        #expect(client.wait(after: 1, asked: .seconds(86_400)) == .seconds(45), "and capped")
        client.random = { 0.123_456 }
        #expect(client.wait(after: 1, asked: nil) == .milliseconds(1_200), "rounded up to a tenth of a second, as the status shows it")
        #expect(client.wait(after: 4, asked: nil) == .seconds(9))
        #expect(client.wait(after: 5, asked: nil) == .seconds(18), "whole seconds from 10 s on")
    }

    @Test("a Retry-After that is negative or not a number is ignored: the server's retry: stays the base; Retry-After: 0 is the floor")
    func badRetryAfter() async {
        let opened = Mutex(0)
        var client = EventStreamClient { _ throws(NetworkError) in
            switch opened.withLock({ $0 += 1; return $0 }) {
            case 1: Self.stream("retry: 5000\n\nid: 1\nevent: ready\ndata: {}\n\n")
            case 2: Self.unavailable(retryAfter: "-5")
            case 3: Self.unavailable(retryAfter: "soon")
            default: Self.unavailable(retryAfter: "0")
            }
        }
        client.random = { 0.5 }
        let waits = await Self.waits(of: client, count: 4).waits
        #expect(waits == [.milliseconds(7_500), .seconds(15), .seconds(30), .seconds(12)])
    }

    @Test("a stream dropped at a limit is no progress, though it handed on an event: the waits keep growing, and the reason is told")
    func droppedStreamsBackOff() async {
        var client = EventStreamClient { _ throws(NetworkError) in
            Self.stream("id: 1\nevent: ready\ndata: {}\n\ndata: " + String(repeating: "x", count: 70_000))
        }
        client.random = { 0.5 }
        let told = await Self.waits(of: client, count: 3)
        #expect(told.waits == [.milliseconds(1_500), .seconds(3), .seconds(6)])
        #expect(told.reasons == Array(repeating: "the server sent a line over 64 KiB", count: 3))
    }
}
