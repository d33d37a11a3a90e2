import Foundation
import Hummingbird
import NIOCore

/// One open `GET /api/events` stream: the log's events after its cursor, then each event the
/// feed hands on, heartbeats while idle, until the client goes, the reader falls too far behind,
/// the person's sign-in ends, or the server shuts down.
struct EventStream: Sendable {
    enum Start: Sendable, Hashable {
        /// No cursor: from the log's end.
        case fresh(Int64)
        /// After the client's cursor.
        case resume(Int64)
        /// The client's cursor is not one the log can resume from: from the log's end, after a `reset`.
        case reset(Int64)
    }

    let feed: EventFeed
    let check: AccessTokenCheck
    let identity: AccessTokenIdentity
    let owner: String?
    let start: Start
    let items: AsyncStream<EventFeed.Item>

    func write(to writer: inout any ResponseBodyWriter) async throws {
        var cursor: Int64
        var opening = "retry: \(feed.settings.retryMilliseconds)\n\n"
        switch start {
        case let .fresh(latest):
            cursor = latest
            opening += Self.frame(id: latest, event: "ready", data: "{\"resumed\":false}")
        case let .resume(after):
            cursor = after
            opening += Self.frame(id: after, event: "ready", data: "{\"resumed\":true}")
        case let .reset(latest):
            cursor = latest
            opening += Self.frame(id: latest, event: "reset", data: "{\"reason\":\"the events after this stream's cursor are no longer kept: fetch what you show again\"}")
        }
        try await writer.write(ByteBuffer(string: opening))
        // What the log holds after the cursor: written before the feed's own, which may repeat it.
        while true {
            let page = try await feed.storage.events(after: cursor, for: .reader(owner: owner), limit: 500)
            guard let last = page.last else { break }
            feed.noteCatalogueChanges(in: page)
            try await writer.write(ByteBuffer(string: page.map(Self.frame).joined()))
            cursor = last.sequence
            if page.count < 500 { break }
        }
        for await item in items {
            switch item {
            case let .event(event):
                guard event.sequence > cursor else { continue }
                cursor = event.sequence
                try await writer.write(ByteBuffer(string: Self.frame(event)))
            case .heartbeat:
                if identity.account != nil {
                    do { try await check.tokens.confirmSignedIn(identity) } catch { return }
                }
                try await writer.write(ByteBuffer(string: ":\n\n"))
            }
        }
    }

    static func frame(_ event: FeedEvent) -> String {
        frame(id: event.sequence, event: event.kind.rawValue, data: event.data)
    }

    static func frame(id: Int64, event: String, data: String) -> String {
        "id: \(id)\nevent: \(event)\ndata: \(data)\n\n"
    }
}
