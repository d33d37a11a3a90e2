import Foundation
import Movies
import Networking

/// A ``MovieService`` that asks the movie API for every call; with the entity tag of an answer
/// the caller holds, it asks conditionally and reports a `304` as ``Revalidation/notModified(_:)``.
public final class APIMovieService: RevalidatingMovieService {
    private let client: APIClient

    public init(client: APIClient) {
        self.client = client
    }

    public func movie(id: Int) async throws(NetworkError) -> Movie {
        try await client.decode(APIMovie.self, from: APIRoute.movie(id: id)).movie
    }

    public func topGrossingMovies(year: Int) async throws(NetworkError) -> [Movie] {
        try await client.decode([APIMovie].self, from: APIRoute.topGrossingMovies(year: year)).map(\.movie)
    }

    public func topRatedMovies(year: Int) async throws(NetworkError) -> [Movie] {
        try await client.decode([APIMovie].self, from: APIRoute.topRatedMovies(year: year)).map(\.movie)
    }

    public func movie(id: Int, ifNoneMatch entityTag: String?) async throws(NetworkError) -> Revalidation<Movie> {
        try await revalidate(APIRoute.movie(id: id), ifNoneMatch: entityTag) { body throws(NetworkError) in
            try ResponseDecoding.decode(APIMovie.self, from: body).movie
        }
    }

    public func topGrossingMovies(year: Int, ifNoneMatch entityTag: String?) async throws(NetworkError) -> Revalidation<[Movie]> {
        try await revalidate(APIRoute.topGrossingMovies(year: year), ifNoneMatch: entityTag) { body throws(NetworkError) in
            try ResponseDecoding.decode([APIMovie].self, from: body).map(\.movie)
        }
    }

    public func topRatedMovies(year: Int, ifNoneMatch entityTag: String?) async throws(NetworkError) -> Revalidation<[Movie]> {
        try await revalidate(APIRoute.topRatedMovies(year: year), ifNoneMatch: entityTag) { body throws(NetworkError) in
            try ResponseDecoding.decode([APIMovie].self, from: body).map(\.movie)
        }
    }

    private func revalidate<Value>(
        _ route: APIRoute,
        ifNoneMatch entityTag: String?,
        decode: (Data) throws(NetworkError) -> Value
    ) async throws(NetworkError) -> Revalidation<Value> {
        switch try await client.send(route, ifNoneMatch: entityTag) {
        case let .modified(response):
            return .modified(try decode(response.body), Self.freshness(of: response))
        case let .notModified(response):
            return .notModified(Self.freshness(of: response))
        }
    }

    static func freshness(of response: APIResponse) -> Freshness {
        let headers = CacheHeaders(response.headerFields)
        return Freshness(entityTag: headers.entityTag, maxAge: headers.maxAge, mayStore: !headers.noStore)
    }
}
