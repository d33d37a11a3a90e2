import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdAuth
import NIOCore
import ServiceLifecycle

/// `GET /api/events`: the token owner's feed as Server-Sent Events. A person's token gets their
/// watchlist's changes and the catalogue's; an application's token, the catalogue's.
///
/// Every event's `id:` is its sequence in the log. A client that reconnects with
/// `Last-Event-ID` gets every event after it, none twice; one whose cursor is older than the log
/// keeps (or is not one of this log's) gets one `reset` event, whose id is where the log stands:
/// it should fetch what it shows again. A stream opens with a `ready` event that carries the
/// cursor it starts from. Idle streams get a comment line every ``FeedSettings/heartbeat``.
struct EventRoutes: Sendable {
    let feed: EventFeed
    let check: AccessTokenCheck

    static let lastEventID = HTTPField.Name("Last-Event-ID")!
    static let accelBuffering = HTTPField.Name("X-Accel-Buffering")!

    func register<Context: AuthRequestContext<AccessTokenIdentity>>(on api: some RouterMethods<Context>) {
        api.group("events").add(middleware: AccessTokenAuthenticator<Context>(check: check, missing: .missingToken))
            .get("") { request, context -> Response in
                let identity = try context.verifiedIdentity()
                if identity.account != nil { try await check.tokens.confirmSignedIn(identity) }
                let owner = identity.account.map(WatchlistOwner.account)
                let start = try await startingPoint(request.headers[Self.lastEventID], owner: owner)
                // A place is taken here and given back when the body ends: a HEAD answer, whose
                // body is never written, takes none.
                let (id, items): (UInt64, AsyncStream<EventFeed.Item>)
                do {
                    (id, items) = try await feed.subscribe(owner: owner)
                } catch EventFeed.Refusal.full {
                    throw ErrorAnswer(.serviceUnavailable, code: "temporarily_unavailable",
                                      message: "This server holds as many event streams as it may; try again shortly.", headerFields: [.retryAfter: "5"])
                } catch EventFeed.Refusal.personAtLimit {
                    throw ErrorAnswer(.tooManyRequests, code: "too_many_streams",
                                      message: "This account has \(feed.settings.streamsPerPerson) event streams open already: close one (or wait for a closed one to be noticed).",
                                      headerFields: [.retryAfter: "15"])
                } catch let error as StorageError {
                    throw ErrorAnswer.storageUnavailable(error)
                }
                let stream = EventStream(feed: feed, check: check, identity: identity, owner: owner, start: start, items: items)
                if request.method == .head { feed.unsubscribe(id) }
                return Response(
                    status: .ok,
                    headers: [.contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store", Self.accelBuffering: "no"],
                    body: ResponseBody { writer in
                        defer { feed.unsubscribe(id) }
                        // Ending the subscription ends the stream: when the client closes the
                        // connection, and at a graceful shutdown. One watching task a stream, where
                        // cancelling on close would take three (a third of its memory).
                        try await request.body.consumeWithInboundCloseHandler { _ in
                            try await withGracefulShutdownHandler {
                                try await stream.write(to: &writer)
                            } onGracefulShutdown: {
                                feed.unsubscribe(id)
                            }
                        } onInboundClosed: {
                            feed.unsubscribe(id)
                        }
                        try await writer.finish(nil)
                    }
                )
            }
    }

    /// Where a stream starts: after the client's cursor, or (`reset`) where the log stands.
    private func startingPoint(_ lastEventID: String?, owner: String?) async throws -> EventStream.Start {
        let bounds: EventLogBounds
        do throws(StorageError) { bounds = try await feed.storage.eventLogBounds() } catch { throw ErrorAnswer.storageUnavailable(error) }
        guard let text = lastEventID?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return .fresh(bounds.latest) }
        guard let cursor = Int64(text), cursor >= bounds.prunedThrough, cursor <= bounds.latest else { return .reset(bounds.latest) }
        return .resume(cursor)
    }
}
