import Movies
import Networking

/// A ``MovieService`` that asks the movie API for every call.
public final class APIMovieService: MovieService {
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
}
