import Foundation
import MarqueeTestSupport
import MovieAPI
import Movies
import Networking
import ReferenceAPI

/// The client stack the app builds, over a stub transport playing the reference API: no sockets.
struct StubbedStack {
    let transport: StubTransport
    let context: InMemoryAPIContext
    let authService: any AuthService<NetworkError>
    let movies: APIMovieService

    init(scenario: StubScenario, credential: Credential? = nil, timeout: Duration = .seconds(3)) {
        transport = ReferenceStubs.transport(scenario: scenario, sleep: { _ in })
        context = InMemoryAPIContext(environment: APIEnvironment(.stub, at: ReferenceStubs.baseURL), credential: credential)
        let stack = APIClientStack(
            context: context, transport: transport, clientCredentials: .testClient,
            retryPolicy: nil, requestTimeout: timeout, callDeadline: nil
        )
        authService = stack.authService
        movies = stack.movieService
    }

    /// `METHOD /path` of every request the stub received.
    var requestLines: [String] {
        transport.receivedRequests.map { "\($0.method) \($0.url.path)" }
    }
}
