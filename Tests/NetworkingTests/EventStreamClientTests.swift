import HTTPTypes
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
            .reconnecting(after: .milliseconds(15), reason: "the server answered 503"),
            .connecting,
            .connected,
            .event(ServerSentEvent(lastEventID: "8", type: "catalog", data: "{}")),
        ])
        #expect(attempts.withLock { $0 } == ["7", "7"])
    }
}
