import Foundation
import MarqueeTestSupport
@testable import MovieServer
import MovieServerDatabases
import NIOConcurrencyHelpers
import ServerTestSupport
import Testing

/// TheLiveFeed (MovieServer.docc): the response cache lets its answers go before a catalogue
/// event reaches any stream, once per event, on an SQLite file written by an import.
@Suite("Catalogue events empty the response cache first", .timeLimit(.minutes(1)))
struct CatalogueEventExpiryTests {
    @Test("the feed calls the hook before a stream receives the event; a stream catching up calls it for an event the feed has not handed on, not for one it has")
    func hookBeforeHandingOn() async throws {
        let file = TestFolders.temporary.appendingPathComponent("catalogue-expiry-\(UUID().uuidString).sqlite")
        let storage = try await DatabaseLocation.sqlite(path: file.path).open(logger: quietLogger)
        var movies = try Catalog.reference().movies
        _ = try await storage.importMovies(movies, batchSize: 100) { _ in }
        let expiries = NIOLockedValueBox(0)
        let feed = EventFeed(
            storage: storage, settings: FeedSettings(),
            catalogueChanged: { expiries.withLockedValue { $0 += 1 } }, logger: quietLogger
        )
        let sink = CollectingSink()
        _ = try await feed.subscribe(.application(clientID: "marquee-dev"), from: "127.0.0.1", sink: sink)
        #expect(expiries.withLockedValue { $0 } == 0, "the import before the stream opened is not news")

        movies[0].name += ", Restored"
        _ = try await storage.importMovies(movies, batchSize: 100) { _ in }
        feed.poke()
        var received: FeedEvent?
        for await event in sink.events {
            guard event.kind == .catalog else { continue }
            #expect(expiries.withLockedValue { $0 } == 1, "the cache was told before the stream got the event")
            received = event
            break
        }
        let event = try #require(received)
        feed.noteCatalogueChanges(in: [event])
        #expect(expiries.withLockedValue { $0 } == 1, "a stream catching up on an event the feed handed on")
        feed.noteCatalogueChanges(in: [FeedEvent(sequence: event.sequence + 1, owner: nil, kind: .catalog, data: "{\"version\":99}")])
        #expect(expiries.withLockedValue { $0 } == 2, "a stream that read an event before the feed did")
        await storage.close()
    }
}

/// A feed sink that passes on the events it is given, in order.
private final class CollectingSink: FeedSink {
    let events: AsyncStream<FeedEvent>
    private let continuation: AsyncStream<FeedEvent>.Continuation

    init() {
        (events, continuation) = AsyncStream.makeStream()
    }

    func receive(_ events: [FeedEvent]) {
        for event in events { continuation.yield(event) }
    }

    func heartbeat() {}
    func signInMayHaveEnded() {}
}
