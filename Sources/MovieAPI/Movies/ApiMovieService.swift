import Movies
import Networking

/// A ``MovieService`` that asks the movie API for every call.
///
/// It throws ``NetworkError`` only.
public final class ApiMovieService: MovieService {
    private let client: APIClient

    public init(client: APIClient) {
        self.client = client
    }

    public func movie(id: Int) async throws -> Movie {
        try await client.decode(ApiMovie.self, from: ApiRoute.movie(id: id)).movie
    }

    public func topGrossingMovies(year: Int) async throws -> [Movie] {
        try await client.decode([ApiMovie].self, from: ApiRoute.topGrossingMovies(year: year)).map(\.movie)
    }

    public func topRatedMovies(year: Int) async throws -> [Movie] {
        try await client.decode([ApiMovie].self, from: ApiRoute.topRatedMovies(year: year)).map(\.movie)
    }
}
