import Foundation
import MovieContract
import Movies
import Networking

/// The movie API's `GET /api/events`, read through an ``EventStreamClient`` on the client's
/// stack (so the credential is put on each connection and renewed on a `401`), and decoded into
/// ``LiveUpdate``s. An event that cannot be decoded is passed over.
public struct APILiveFeed: LiveFeed {
    let client: APIClient
    var configure: @Sendable (inout EventStreamClient) -> Void = { _ in }

    public init(client: APIClient) {
        self.client = client
    }

    /// The same feed with its stream client's waits changed (the tests shorten them).
    public func configured(_ change: @escaping @Sendable (inout EventStreamClient) -> Void) -> APILiveFeed {
        var copy = self
        copy.configure = change
        return copy
    }

    /// The feed's items, each made when it is asked for (nothing is read ahead of the reader).
    public func updates(after cursor: String?) -> AsyncStream<LiveFeedItem> {
        let client = client
        var stream = EventStreamClient { lastEventID throws(NetworkError) in try await client.openStream(APIRoute.events(lastEventID: lastEventID)) }
        configure(&stream)
        let items = LiveFeedItems(stream.items(from: cursor).makeAsyncIterator())
        return AsyncStream(unfolding: { await items.next() })
    }

    /// The item the feed tells for `item` of the stream; `nil` for an event that cannot be decoded.
    static func item(for item: EventStreamClient.Item) -> LiveFeedItem? {
        switch item {
        case .connecting: .status(.connecting)
        case .connected: .status(.live)
        case let .event(event): decode(event).map { .update($0) }
        case let .reconnecting(delay, reason): .status(.reconnecting(after: delay, reason: reason))
        case let .stopped(error): .status(endsTheSignIn(error) ? .signedOut(explain(error)) : .off(explain(error)))
        }
    }

    static func explain(_ error: NetworkError) -> String {
        switch error {
        case .status(code: 404, _), .status(code: 405, _), .status(code: 501, _): "this server has no live feed"
        case .status(code: 401, _), .status(code: 403, _): "the server refused the feed to this credential"
        case let .authenticationFailed(reason): SignedOut.sentence(in: reason) ?? "the sign-in has ended; run 'marquee login' to sign in again"
        default: error.description
        }
    }

    /// Whether the feed stopped because the credential can no longer be renewed: the sign-in ended.
    static func endsTheSignIn(_ error: NetworkError) -> Bool {
        switch error {
        case .authenticationFailed, .status(code: 401, _): true
        default: false
        }
    }

    static func decode(_ event: ServerSentEvent) -> LiveUpdate? {
        let cursor = event.lastEventID
        guard !cursor.isEmpty else { return nil }
        let data = Data(event.data.utf8)
        switch FeedWire.Event(rawValue: event.type) {
        case .ready:
            return .ready(cursor: cursor)
        case .reset:
            return .reset(cursor: cursor)
        case .catalog:
            return (try? JSONDecoder().decode(FeedWire.CatalogChange.self, from: data)).map { .catalog(version: $0.version, cursor: cursor) }
        case .watchlist:
            guard let change = try? JSONDecoder().decode(FeedWire.WatchlistChange.self, from: data),
                  let changedAt = WatchlistClock.milliseconds(change.changedAt) else { return nil }
            return .watchlist(WatchlistItem(movieID: change.movieId, note: change.note, changedAt: changedAt), removed: change.removed, cursor: cursor)
        case .shelf:
            return shelfChange(data).map { .shelf($0, cursor: cursor) }
        case nil:
            return nil
        }
    }
}

/// The stream's items as the feed's, read one at a time as they are asked for.
private final class LiveFeedItems: @unchecked Sendable {
    private var items: AsyncStream<EventStreamClient.Item>.Iterator

    init(_ items: AsyncStream<EventStreamClient.Item>.Iterator) {
        self.items = items
    }

    func next() async -> LiveFeedItem? {
        while let item = await items.next() {
            if let told = APILiveFeed.item(for: item) { return told }
        }
        return nil
    }
}
