import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdAuth
import MovieContract

/// `/api/watchlist`: each person's list of movies to watch, read and written with their access
/// token, which names the account. An application's token is refused (`403`): a list belongs to a
/// person (lists kept under a client id before accounts are handed over by the operator). A token is needed also on a `--public` server.
///
/// - `GET /api/watchlist`: `{"entries": [...], "removed": [...]}`, each entry with the movie's
///   title and year, each removal with its time, with an `ETag` (a `304` for a match), `private`.
/// - `PUT /api/watchlist/{movieId}`, `DELETE /api/watchlist/{movieId}`: one change.
/// - `POST /api/watchlist/changes`: up to 500 changes in order.
///
/// Every write needs an `Idempotency-Key`; see ``WatchlistPlan`` for what a repeat does and how
/// two devices' changes to one movie are settled.
struct WatchlistRoutes: Sendable {
    /// The largest body a write may have (a full batch with long notes fits); a larger one is a 413.
    static let maximumBodySize = 2 * 1024 * 1024

    let storage: any WatchlistStorage
    /// Where the list's titles and years come from.
    let catalogue: any CatalogueStorage
    let check: AccessTokenCheck
    /// Called after a write committed (the event feed reads its log then).
    let written: @Sendable () -> Void
    private let caching = CachingDirectives(maxAge: 0, isPrivate: true)

    func register<Context: AuthRequestContext<AccessTokenIdentity>>(on api: some RouterMethods<Context>) {
        let router = api.group("watchlist").add(middleware: AccessTokenAuthenticator<Context>(check: check, missing: .missingWatchlistToken))
        router.get("") { request, context in
            let owner = try await owner(context).owner
            let list = try await answering { () async throws(StorageError) in try await storage.watchlistRead(owner: owner) }
            let titles = try await answering { () async throws(StorageError) in try await catalogue.titles(ofMovies: list.entries.filter { !$0.removed }.map(\.movieID)) }
            // The position goes in a header, not the body: the body's tag changes only with the list.
            var response = caching.response(for: CacheableBody(json: WatchlistJSON.list(list.entries, titles: titles)), to: request)
            response.headers[.feedPosition] = String(list.feedPosition)
            return response
        }
        for (method, action) in [(HTTPRequest.Method.put, WatchlistChangeRecord.Action.add), (.delete, .remove)] {
            router.on(":id", method: method) { (request: Request, context: Context) -> Response in
                let (owner, account) = try await owner(context)
                let movieID = try ParameterParsing.movieID(context.parameters.get("id"))
                let key = try WatchlistJSON.key(request.headers[.idempotencyKey])
                let body = Data(buffer: try await request.body.collect(upTo: Self.maximumBodySize))
                let change = try WatchlistJSON.single(body, id: key, movieID: movieID, action: action, now: WatchlistClock.now())
                let write = WatchlistWrite(owner: owner, account: account, key: key, request: "\(method) \(movieID)", body: body, changes: [change], shape: .single)
                return try await apply(write)
            }
        }
        router.post("changes") { request, context in
            let (owner, account) = try await owner(context)
            let key = try WatchlistJSON.key(request.headers[.idempotencyKey])
            let body = Data(buffer: try await request.body.collect(upTo: Self.maximumBodySize))
            let changes = try WatchlistJSON.batch(body)
            return try await apply(WatchlistWrite(owner: owner, account: account, key: key, request: "POST changes", body: body, changes: changes, shape: .batch))
        }
    }

    /// Whose list the request's token reads and writes, and the account's id: the account's, once
    /// its sign-in is found still on. An application's token (client credentials) has no
    /// watchlist: `403`.
    private func owner(_ context: some AuthRequestContext<AccessTokenIdentity>) async throws -> (owner: String, account: String) {
        let identity = try context.verifiedIdentity()
        guard identity.account != nil else { throw ErrorAnswer.applicationHasNoWatchlist }
        guard let signIn = try await check.tokens.confirmSignedIn(identity) else { throw ErrorAnswer.applicationHasNoWatchlist }
        return (WatchlistOwner.account(id: signIn.accountID), signIn.accountID)
    }

    private func apply(_ write: WatchlistWrite) async throws -> Response {
        let answer: WatchlistAnswer
        answer = try await answering { () async throws(StorageError) in try await storage.applyWatchlist(write, now: Date()) }
        guard answer != .accountRemoved else { throw ErrorAnswer.accountRemoved }
        written()
        return Response(
            status: HTTPResponse.Status(code: answer.status),
            headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: answer.body))
        )
    }
}

extension HTTPField.Name {
    static let idempotencyKey = HTTPField.Name("Idempotency-Key")!
    /// The feed position a list was read at: it holds every change of the events up to it.
    static let feedPosition = HTTPField.Name("Feed-Position")!
}
