import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdAuth
import MovieContract

/// `/api/{kind}` for one ``ShelfKind`` (`/api/ratings`, …): a person's records of the kind, read
/// and written with their access token, as the watchlist's are. An application's token is
/// refused (`403`).
///
/// - `GET /api/{kind}`: `{"entries": [...], "removed": [...]}`, newest change first, each record
///   with its movie's title and year, with an `ETag` (a `304` for a match), `private`, and the
///   feed position it was read at in `Feed-Position`.
/// - `POST /api/{kind}/changes`: 1 to 500 changes in order, under an `Idempotency-Key`.
struct ShelfRoutes<Kind: ShelfKind>: Sendable {
    let storage: any ShelfStorage
    let catalogue: any CatalogueStorage
    let check: AccessTokenCheck
    /// Called after a write committed (the event feed reads its log then).
    let written: @Sendable () -> Void
    private let caching = CachingDirectives(maxAge: 0, isPrivate: true)

    init(_ kind: Kind.Type, storage: any ShelfStorage, catalogue: any CatalogueStorage, check: AccessTokenCheck, written: @escaping @Sendable () -> Void) {
        self.storage = storage
        self.catalogue = catalogue
        self.check = check
        self.written = written
    }

    func register<Context: AuthRequestContext<AccessTokenIdentity>>(on api: some RouterMethods<Context>) {
        let router = api.group(RouterPath(Kind.name)).add(middleware: AccessTokenAuthenticator<Context>(check: check, missing: .missingShelfToken))
        router.get("") { request, context in
            let owner = try await owner(context).owner
            let (after, limit) = try ShelfPaging.parse(request.uri)
            let read = try await answering { () async throws(StorageError) in try await storage.shelfPage(owner: owner, kind: Kind.name, after: after, limit: limit) }
            let decoded = ShelfJSON.decoded(read.entries, of: Kind.self)
            let movies = decoded.compactMap { entry, value in value.flatMap { Kind.movieID(key: entry.key, value: $0) } }
            let titles = try await answering { () async throws(StorageError) in try await catalogue.titles(ofMovies: movies) }
            let next = read.more ? read.entries.last?.key : nil
            var response = caching.response(for: CacheableBody(json: ShelfJSON.list(decoded, of: Kind.self, titles: titles, next: next)), to: request)
            response.headers[.feedPosition] = String(read.feedPosition)
            return response
        }
        router.post("changes") { request, context in
            let (owner, account) = try await owner(context)
            let key = try WatchlistJSON.key(request.headers[.idempotencyKey])
            let body = Data(buffer: try await request.body.collect(upTo: WatchlistRoutes.maximumBodySize))
            let (changes, movies, groups) = try ShelfJSON.batch(body, of: Kind.self)
            var write = ShelfWrite(owner: owner, account: account, kind: Kind.name, key: key, body: body, changes: changes, movies: movies)
            write.groups = groups
            if let parent = Kind.groupParent {
                write.parentKind = parent
                for change in changes where !change.isRemoval { write.parents[change.key] = ShelfKeys.group(of: change.key) }
            }
            write.groupLimit = Kind.groupLimit ?? .max
            write.recordLimit = Kind.recordLimit ?? .max
            write.recordsNoun = Kind.recordsNoun
            let answer = try await answering { () async throws(StorageError) in try await storage.applyShelf(write, now: Date()) }
            guard answer != .accountRemoved else { throw ErrorAnswer.accountRemoved }
            written()
            return Response(
                status: HTTPResponse.Status(code: answer.status),
                headers: [.contentType: "application/json", .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(string: answer.body))
            )
        }
    }

    /// Whose shelf the token reads and writes: the account's, once its sign-in is found still on.
    private func owner(_ context: some AuthRequestContext<AccessTokenIdentity>) async throws -> (owner: String, account: String) {
        let identity = try context.verifiedIdentity()
        guard identity.account != nil, let signIn = try await check.tokens.confirmSignedIn(identity) else {
            throw ErrorAnswer.applicationHasNoShelf
        }
        return (WatchlistOwner.account(id: signIn.accountID), signIn.accountID)
    }
}

/// The routes of every kind of the shelf, each as ``ShelfRoutes`` of it.
enum ShelfRouting {
    /// Registers the routes of `kind` on `api`.
    static func register<Context: AuthRequestContext<AccessTokenIdentity>>(
        _ kind: any ShelfKind.Type, storage: any ShelfStorage, catalogue: any CatalogueStorage, check: AccessTokenCheck,
        written: @escaping @Sendable () -> Void, on api: some RouterMethods<Context>
    ) {
        func open<Some: ShelfKind>(_ kind: Some.Type) {
            ShelfRoutes<Some>(kind, storage: storage, catalogue: catalogue, check: check, written: written).register(on: api)
        }
        open(kind)
    }
}
