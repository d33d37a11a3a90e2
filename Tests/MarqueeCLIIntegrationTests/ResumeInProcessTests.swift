import Foundation
import MarqueeTestSupport
import MovieAPI
import MovieContract
import MovieServer
import MovieStore
import Movies
import NIOConcurrencyHelpers
import NetworkTestSupport
import Networking
import ServerTestSupport
import Testing

/// The live feed's resume, cut a thousand times: the pieces `marquee watchlist --follow` is made
/// of (the person's stack, the store, `WatchlistLive`), in process, with the reconnection floor
/// lowered from a second to 2 ms so that a thousand cuts take seconds, not half an hour.
@Suite("The live feed resumed after a thousand cuts", .serialized, .timeLimit(.minutes(4)))
struct ResumeInProcessTests {
    @Test("a stream cut 1,000 times at random moments while 300 changes are made: the store ends equal to the server's list, no change applied twice")
    func losslessResume() async throws {
        let storage = MemoryStorage(catalog: try Catalog.reference())
        var feedSettings = FeedSettings()
        feedSettings.retryMilliseconds = 2
        try await withMovieServer(auth: LoginFlow.auth(), storage: storage, feed: feedSettings) { server in
            let relay = try await ChoppingRelay.start(to: server.port, cuts: 1_000, longest: 400, seed: 1_000)
            let api = "http://127.0.0.1:\(relay.port)/api/"
            let home = try TemporaryConfigHome()
            #expect(try await LoginFlow.login(home.marquee, api: api, port: server.port, as: "alice").status == 0)

            let environment = try #require(APIEnvironment(APIIdentity(baseURL: try APIBaseURL(api))))
            let transport = AsyncHTTPClientTransport()
            let context = FileAPIContext(environment: environment, fileURL: home.credentialsFile, holder: .person(account: "alice"))
            let stack = APIClientStack(context: context, transport: transport, clientCredentials: APIClientCredentials(id: "marquee-dev", secret: "marquee-dev-secret"), person: "alice")
            let store = try MovieStore(url: home.root.appendingPathComponent("movies.sqlite"))
            let key = WatchlistScope.key(api: environment.identity.key, account: "alice")
            let feed = APILiveFeed(client: stack.client).configured { stream in
                stream.shortestWait = .milliseconds(2)
                stream.longestWait = .milliseconds(50)
            }
            let live = WatchlistLive(store: store, api: key, sync: WatchlistSync(service: APIWatchlistService(client: stack.client), store: store, api: key), feed: feed)
            let applied = NIOLockedValueBox<[Int64]>([])
            let following = Task {
                await live.run { report in
                    if case let .changed(change) = report { applied.withLockedValue { $0.append(change.changedAt) } }
                }
            }
            try await finally(try await {
                let movies = try Catalog.reference().movies.map(\.id)
                var made = 0
                while relay.cutsMade < 1_000 || made < 300 {
                    let movie = movies[made % movies.count]
                    let action: WatchlistChangeRecord.Action = (made / movies.count).isMultiple(of: 2) ? .add : .remove
                    _ = storage.applyWatchlist(FeedWrites.change("c\(made)", movie: movie, action, at: 1_700_000_000_000 + Int64(made) * 1_000, on: storage), now: Date())
                    made += 1
                    try await Task.sleep(for: .milliseconds(made < 300 ? 20 : 5))
                    if made > 20_000 { break }
                }
                #expect(relay.cutsMade == 1_000, "the relay cut \(relay.cutsMade) streams")
                let last = 1_700_000_000_000 + Int64(made - 1) * 1_000
                let arrived = try await eventually(limit: .seconds(60)) { applied.withLockedValue { $0.last == last } }
                #expect(arrived, "the last change arrived, after every one before it")
                let times = applied.withLockedValue { $0 }
                #expect(times.count == Set(times).count, "a change was applied twice: \(times.count) applied, \(Set(times).count) changes")
                let expected = Set(storage.watchlist(owner: storage.owner(ofAccount: "alice")).map(\.movieID))
                #expect(Set(try await store.watchlist(api: key).lines.map(\.movieID)) == expected)
            }()) {
                following.cancel()
                await following.value
                try? await transport.shutdown()
                await relay.stop()
            }
        }
    }
}
