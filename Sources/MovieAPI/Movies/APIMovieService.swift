import Foundation
import MovieContract
import Movies
import Networking

/// A ``MovieService`` that asks the movie API for every call; with the entity tag of an answer
/// the caller holds, it asks conditionally and reports a `304` as ``Revalidation/notModified(_:)``.
public final class APIMovieService: MovieService {
    private let client: APIClient

    public init(client: APIClient) {
        self.client = client
    }

    public func movie(id: Int) async throws(NetworkError) -> Movie {
        try await client.send(APIRoute.movieRequest(id: id))
    }

    public func movies(_ list: MovieList, year: Int) async throws(NetworkError) -> [Movie] {
        try await client.send(APIRoute.moviesRequest(list, year: year))
    }

    public func search(_ request: MovieSearchRequest) async throws(NetworkError) -> MovieSearchPage {
        try await client.send(APIRoute.searchRequest(request))
    }

    /// The server's suggestion; none while its search index is being made.
    public func suggestion(for request: MovieSearchRequest) async throws(NetworkError) -> SearchSuggestion? {
        try await client.send(APIRoute.suggestionRequest(request)).suggestion
    }

    public func isUnavailable(_ failure: NetworkError) -> Bool {
        failure.meansServerUnavailable
    }

    public func hasNoSearch(_ failure: NetworkError) -> Bool {
        failure.statusCode == 404
    }

    public func movie(id: Int, ifNoneMatch entityTag: String?) async throws(NetworkError) -> Revalidation<Movie> {
        try await revalidate(APIRoute.movieRequest(id: id), ifNoneMatch: entityTag)
    }

    public func movies(_ list: MovieList, year: Int, ifNoneMatch entityTag: String?) async throws(NetworkError) -> Revalidation<[Movie]> {
        try await revalidate(APIRoute.moviesRequest(list, year: year), ifNoneMatch: entityTag)
    }

    private func revalidate<Response>(_ request: Request<Response>, ifNoneMatch entityTag: String?) async throws(NetworkError) -> Revalidation<Response> {
        switch try await client.send(request, ifNoneMatch: entityTag) {
        case let .modified(response):
            .modified(try request.decode(response.body), Self.freshness(of: response))
        case let .notModified(response):
            .notModified(Self.freshness(of: response))
        }
    }

    static func freshness(of response: APIResponse) -> Freshness {
        let headers = CacheHeaders(response.headerFields)
        return Freshness(entityTag: headers.entityTag, maxAge: headers.maxAge, mayStore: !headers.noStore)
    }
}
