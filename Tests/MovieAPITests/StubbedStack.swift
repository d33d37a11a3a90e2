import Foundation
import MovieAPI
import Movies
import Networking
import ReferenceAPI

/// The client stack the app builds, over a stub transport playing the reference API: no sockets.
struct StubbedStack {
    let transport: StubTransport
    let context: InMemoryApiContext
    let authService: ApiAuthService
    let movies: ApiMovieService

    init(scenario: StubScenario, credential: Credential? = nil, timeout: Duration = .seconds(3)) {
        transport = ReferenceStubs.transport(scenario: scenario, sleep: { _ in })
        context = InMemoryApiContext(environment: .custom(ReferenceStubs.baseURL), credential: credential)
        authService = ApiAuthService(
            client: APIClient(baseURL: ReferenceStubs.baseURL, transport: transport, defaultTimeout: timeout),
            clientID: "marquee-dev", clientSecret: "marquee-dev-secret"
        )
        let interceptor = AuthenticationInterceptor(authenticator: ApiAuthenticator(authService: authService), store: context)
        movies = ApiMovieService(client: APIClient(baseURL: ReferenceStubs.baseURL, transport: transport, interceptors: [interceptor], defaultTimeout: timeout))
    }

    /// `METHOD /path` of every request the stub received.
    var requestLines: [String] {
        transport.receivedRequests.map { "\($0.method) \($0.url.path)" }
    }
}
