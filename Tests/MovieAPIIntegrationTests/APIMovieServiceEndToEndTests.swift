import Foundation
import Hummingbird
import MovieAPI
import MovieContract
import MovieServer
import Movies
import NetworkTestSupport
import Networking
import ServerTestSupport
import Testing

/// `APIMovieService` over real sockets against the real server on an ephemeral loopback port.
@Suite("APIMovieService end to end")
struct APIMovieServiceEndToEndTests {
    @Test("one movie, the top grossing and the top rated movies of 2016")
    func fetchesAllThree() async throws {
        try await withMovieService { service in
            let deadpool = try await service.movie(id: 6)
            #expect(deadpool.name == "Deadpool")
            #expect(deadpool.cast.map(\.name) == ["Ryan Reynolds", "Karan Soni", "T.J. Miller"])
            #expect(CalendarDate.string(from: deadpool.releaseDate) == "2016-02-12")

            let grossing = try await service.movies(.topGrossing, year: 2016)
            #expect(grossing.count == 10)
            #expect(grossing.first?.name == "Finding Dory")
            #expect(grossing.last?.name == "Doctor Strange")

            let rated = try await service.movies(.topRated, year: 2016)
            #expect(rated.map(\.id) == [7, 6, 3, 2, 10, 5, 1, 8, 4, 9])
        }
    }

    @Test("a year with no movies is an empty list")
    func emptyYear() async throws {
        try await withMovieService { service in
            let movies = try await service.movies(.topGrossing, year: 1999)
            #expect(movies.isEmpty)
        }
    }

    @Test("an unknown movie is a 404 status error with the server's message")
    func unknownMovie() async throws {
        try await withMovieService { service in
            await #expect(throws: NetworkError.status(code: 404, excerpt: "There is no movie with id 42.")) {
                try await service.movie(id: 42)
            }
        }
    }

    @Test("a stopped server is cannotConnect with its host and port")
    func refusedConnection() async throws {
        let port = try await closedLoopbackPort()
        try await withTransport { transport in
            let client = APIClient(baseURL: URL(string: "http://127.0.0.1:\(port)/api")!, transport: transport)
            await #expect(throws: NetworkError.cannotConnect(host: "127.0.0.1", port: port, reason: "connection refused")) {
                try await APIMovieService(client: client).movies(.topGrossing, year: 2016)
            }
        }
    }

    @Test("an undecodable body is cannotDecode with the path of the bad value")
    func undecodableBody() async throws {
        try await withLoopbackServer({ router in
            router.get("api/movies/topRated/:year") { _, _ in
                #"[{"name":"A","id":1,"year":2016,"releaseDate":"2016-01-01","grossing":1,"rating":5,"cast":[]},{"name":"B","id":"2"}]"#
            }
        }) { server in
            try await withTransport { transport in
                let service = APIMovieService(client: APIClient(baseURL: server.baseURL, transport: transport))
                do {
                    _ = try await service.movies(.topRated, year: 2016)
                    Issue.record("decoding should fail")
                } catch let error as NetworkError {
                    guard case let .cannotDecode(path, _) = error else { Issue.record("unexpected \(error)"); return }
                    #expect(path == "$[1].id")
                }
            }
        }
    }

    private func withMovieService(_ body: (APIMovieService) async throws -> Void) async throws {
        try await withMovieServer { server in
            try await withTransport { transport in
                let context = InMemoryAPIContext(environment: APIEnvironment(.embedded, at: server.baseURL))
                try await body(APIMovieService(client: APIClient(baseURL: context.environment.baseURL, transport: transport)))
            }
        }
    }
}
