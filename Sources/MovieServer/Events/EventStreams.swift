import Foundation
import HTTPTypes
import MovieContract
import NIOHTTP1
import Logging
import NIOCore

/// What opening a `GET /api/events` stream takes off the event loop: the token's check, the
/// cursor's starting point, a place among the feed's streams, and the log's events after the
/// cursor; and the stream's text (``frame(_:)``). The stream itself is written on its
/// connection's event loop by ``EventStreamResponder``.
///
/// Every event's `id:` is its sequence in the log. A client that reconnects with
/// `Last-Event-ID` gets every event after it, none twice; one whose cursor is older than the log
/// keeps (or is not one of this log's) gets one `reset` event, whose id is where the log stands:
/// it should fetch what it shows again. A stream opens with a `ready` event that carries the
/// cursor it starts from. Idle streams get a comment line every ``FeedSettings/heartbeat``.
struct EventStreams: Sendable {
    let feed: EventFeed
    let check: AccessTokenCheck
    let metrics: ServerMetrics
    /// The proxies whose forwarding header names a stream's client address.
    var proxies = TrustedProxies.none

    /// Where a stream starts.
    enum Start: Sendable, Hashable {
        /// No cursor: from the log's end.
        case fresh(Int64)
        /// After the client's cursor.
        case resume(Int64)
        /// The client's cursor is not one the log can resume from: from the log's end, after a `reset`.
        case reset(Int64)

        var cursor: Int64 {
            switch self {
            case let .fresh(cursor), let .resume(cursor), let .reset(cursor): cursor
            }
        }
    }

    /// A stream the request may open: its reader and where it starts.
    struct Opened: Sendable {
        let subscription: UInt64
        let identity: AccessTokenIdentity
        /// The watchlist owner whose events it carries besides the catalogue's; nil for an application.
        let owner: String?
        let start: Start
    }

    static let pageSize = 500

    /// The party a stream request from `peer` counts against (``IPAddress/party``): the peer's
    /// address, or behind a trusted proxy the client it forwarded.
    func address(peer: SocketAddress?, headers: HTTPHeaders) -> String {
        let lines = proxies.isEmpty ? [] : headers[proxies.header.rawValue]
        return proxies.client(peer: peer?.ipAddress.flatMap { IPAddress($0) }, headerLines: lines)?.party ?? "unknown"
    }

    /// Checks the request's token and takes a place for its stream among the feed's, counted
    /// against the client's `address`, whose events go to `sink` from now on; the caller gives
    /// the place back (``EventFeed/unsubscribe(_:)``).
    func open(authorization: String?, lastEventID: String?, address: String, sink: any FeedSink) async throws(ErrorAnswer) -> Opened {
        let identity = try await check.identity(authorization: authorization, missing: .missingToken)
        let signIn = identity.account == nil ? nil : try await check.tokens.confirmSignedIn(identity)
        let owner = signIn.map { WatchlistOwner.account(id: $0.accountID) }
        let start = try await startingPoint(lastEventID, owner: owner)
        do {
            let reader: EventFeed.Reader = owner.map { .person(owner: $0) } ?? .application(clientID: identity.clientID)
            let subscription = try await feed.subscribe(reader, from: address, sink: sink)
            return Opened(subscription: subscription, identity: identity, owner: owner, start: start)
        } catch EventFeed.Refusal.full {
            throw ErrorAnswer(.serviceUnavailable, code: "temporarily_unavailable",
                              message: "This server holds as many event streams as it may; try again shortly.", headerFields: [.retryAfter: "5"])
        } catch EventFeed.Refusal.reserved {
            throw ErrorAnswer(.serviceUnavailable, code: "temporarily_unavailable",
                              message: "This server keeps its last \(feed.settings.reservedStreams) event streams for people who hold none, and this account or address holds one already; try again shortly.",
                              headerFields: [.retryAfter: "15"])
        } catch EventFeed.Refusal.addressAtLimit {
            throw ErrorAnswer(.tooManyRequests, code: "too_many_streams",
                              message: "This address has \(feed.settings.streamsPerAddress) event streams open already, whoever's accounts they use: close one (or wait for a closed one to be noticed).",
                              headerFields: [.retryAfter: "15"])
        } catch EventFeed.Refusal.personAtLimit {
            throw ErrorAnswer(.tooManyRequests, code: "too_many_streams",
                              message: "This account has \(feed.settings.streamsPerPerson) event streams open already: close one (or wait for a closed one to be noticed).",
                              headerFields: [.retryAfter: "15"])
        } catch EventFeed.Refusal.applicationAtLimit {
            throw ErrorAnswer(.tooManyRequests, code: "too_many_streams",
                              message: "This application holds as many event streams as its own token may here; close one, or open streams with a person's token.",
                              headerFields: [.retryAfter: "15"])
        } catch let error as StorageError {
            throw ErrorAnswer.storageUnavailable(error)
        } catch {
            throw ErrorAnswer(.serviceUnavailable, code: "temporarily_unavailable", message: "The event feed could not be opened; try again shortly.", headerFields: [.retryAfter: "1"])
        }
    }

    /// Where a stream starts: after the client's cursor, or (`reset`) where the log stands.
    private func startingPoint(_ lastEventID: String?, owner: String?) async throws(ErrorAnswer) -> Start {
        let bounds: EventLogBounds
        bounds = try await answering { () async throws(StorageError) in try await feed.storage.eventLogBounds() }
        guard let text = lastEventID?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return .fresh(bounds.latest) }
        guard let cursor = Int64(text), cursor >= bounds.prunedThrough, cursor <= bounds.latest else { return .reset(bounds.latest) }
        return .resume(cursor)
    }

    /// One page of what the log holds for `owner` after `cursor`; the feed is told of the
    /// catalogue events among them before they are written (``EventFeed/noteCatalogueChanges(in:)``).
    func catchUp(after cursor: Int64, owner: String?) async throws -> [FeedEvent] {
        let page = try await feed.storage.events(after: cursor, for: .reader(owner: owner), limit: Self.pageSize)
        feed.noteCatalogueChanges(in: page)
        return page
    }

    /// A stream's first lines: how long to wait before reconnecting, then `ready` or `reset`.
    func opening(_ start: Start) -> String {
        var text = "retry: \(feed.settings.retryMilliseconds)\n\n"
        switch start {
        case let .fresh(latest):
            text += Self.frame(id: latest, event: .ready, data: FeedWire.Ready(resumed: false).json)
        case let .resume(after):
            text += Self.frame(id: after, event: .ready, data: FeedWire.Ready(resumed: true).json)
        case let .reset(latest):
            text += Self.frame(id: latest, event: .reset, data: FeedWire.Reset(reason: "the events after this stream's cursor are no longer kept: fetch what you show again").json)
        }
        return text
    }

    /// The event's lines, or nothing for a kind no reader is sent.
    static func frame(_ event: FeedEvent) -> String {
        guard let name = event.kind.event else { return "" }
        return frame(id: event.sequence, event: name, data: event.data)
    }

    static func frame(id: Int64, event: FeedWire.Event, data: String) -> String {
        "id: \(id)\nevent: \(event.rawValue)\ndata: \(data)\n\n"
    }

    /// Whether a request head asks for the stream: `GET` or `HEAD` of `/api/events`, with or
    /// without a query, its path percent-decoded as the router decodes every other path (an
    /// escape that does not decode is kept as written, and so matches nothing).
    static func isStreamRequest(_ method: HTTPMethod, uri: String) -> Bool {
        guard method == .GET || method == .HEAD else { return false }
        // Every request passes here: bytes, not Foundation's string search (3% of a request's CPU).
        let raw = uri.utf8.firstIndex(of: UInt8(ascii: "?")).map { uri[..<$0] } ?? uri[...]
        guard raw.utf8.contains(UInt8(ascii: "%")) else { return raw == "/api/events" || raw == "/api/events/" }
        let path = raw.removingPercentEncoding ?? String(raw)
        return path == "/api/events" || path == "/api/events/"
    }
}
