import Foundation
import Logging
import Movies
import Networking

/// The authenticated client of one movie API, built one way for the app, the tests and the
/// benchmarks: a token client, the auth service the API's scheme asks for, one shared
/// ``AuthenticationInterceptor``, and the ``RetryPolicy`` after it. Identical movie requests in
/// flight at once share one exchange (``SharedExchangeTransport``) unless `sharesExchanges` is
/// `false`. `curlPlaceholders` names the shell variables of the debug `curl` commands. `logger` receives the request log and the authorization steps (nothing by default).
///
/// `person` names the account whose credential `context` keeps: its requests carry the person's
/// token from the first, and a refused refresh ends with ``SignedOut``, never a grant of the
/// client's own.
///
/// The scheme follows the API: production uses the original site's plain-text token in an
/// `AUTH_TOKEN` header, on every request; every other API gets OAuth bearer tokens, up front
/// for the embedded server (which is known to require them) and otherwise only once the server
/// asks with a `401` and `WWW-Authenticate: Bearer`.
public struct APIClientStack: Sendable {
    /// The client for the movie routes, with authentication and retries.
    public let client: APIClient
    /// The client for the token endpoint: no interceptors, so a token request is never retried
    /// and never carries an access token.
    public let tokenClient: APIClient
    public let authService: any AuthService<NetworkError>
    public let interceptor: AuthenticationInterceptor<APIAuthenticator>

    public init(
        context: any APIContext,
        transport: any Transport,
        clientCredentials: APIClientCredentials,
        person: String? = nil,
        retryPolicy: RetryPolicy? = RetryPolicy(),
        requestTimeout: Duration = .seconds(30),
        callDeadline: Duration? = .seconds(60),
        sharesExchanges: Bool = true,
        curlPlaceholders: CurlCommand.Placeholders = CurlCommand.Placeholders(),
        now: @escaping @Sendable () -> Date = { Date() },
        logger: Logger = .disabled
    ) {
        let environment = context.environment
        tokenClient = APIClient(baseURL: environment.baseURL, transport: transport, defaultTimeout: requestTimeout, curlPlaceholders: curlPlaceholders, logger: logger)
        let header: AuthorizationHeader
        let presentation: AuthenticationInterceptor<APIAuthenticator>.Presentation
        switch environment.identity {
        case .production:
            authService = LegacyTokenAuthService(client: tokenClient, now: now)
            header = .custom(.init("AUTH_TOKEN")!)
            presentation = .upFront
        case .embedded, .custom, .stub:
            let personOfAPI = person.map { (account: $0, api: environment.identity.description) }
            authService = APIAuthService(client: tokenClient, clientCredentials: clientCredentials, person: personOfAPI, now: now)
            header = .bearer
            presentation = environment.identity == .embedded || person != nil ? .upFront : .whenChallenged
        }
        interceptor = AuthenticationInterceptor(
            authenticator: APIAuthenticator(authService: authService, header: header, now: now, logger: logger),
            store: context,
            presentation: presentation
        )
        let interceptors: [any Interceptor] = [interceptor] + (retryPolicy.map { [$0] } ?? [])
        client = APIClient(
            baseURL: environment.baseURL,
            transport: sharesExchanges ? SharedExchangeTransport(base: transport) : transport,
            interceptors: interceptors,
            defaultTimeout: requestTimeout,
            deadline: callDeadline,
            curlPlaceholders: curlPlaceholders,
            logger: logger
        )
    }

    /// The movie service on ``client``.
    public var movieService: APIMovieService { APIMovieService(client: client) }
}
