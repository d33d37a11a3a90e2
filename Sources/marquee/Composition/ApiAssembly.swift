import MovieAPI
import Networking
import ReferenceAPI
import Swinject

/// The API's shared pieces: one context, one transport, and the clients built on them.
struct ApiAssembly: Assembly {
    static let tokenClient = "token"

    let settings: AppSettings

    func assemble(container: Container) {
        let settings = self.settings
        container.register((any ApiContext).self) { _ -> any ApiContext in
            if settings.environment.keepsCredential {
                FileApiContext(environment: settings.environment.api, fileURL: settings.credentialsFile)
            } else {
                InMemoryApiContext(environment: settings.environment.api)
            }
        }.inObjectScope(.container)

        container.register((any Transport).self) { _ in
            switch settings.environment {
            case let .stub(scenario): ReferenceStubs.transport(scenario: scenario)
            case .embedded, .production, .custom: AsyncHTTPClientTransport()
            }
        }.inObjectScope(.container)

        container.register(APIClient.self, name: Self.tokenClient) { resolver in
            APIClient(baseURL: settings.environment.api.baseURL, transport: resolver.resolved(), defaultTimeout: settings.requestTimeout)
        }

        container.register(RetryPolicy.self) { _ in RetryPolicy() }

        // Authentication first: a 401 is its to handle; the retry policy takes the transient failures.
        container.register(APIClient.self) { resolver in
            APIClient(
                baseURL: settings.environment.api.baseURL,
                transport: resolver.resolved(),
                interceptors: [resolver.resolved(AuthenticationInterceptor<ApiAuthenticator>.self), resolver.resolved(RetryPolicy.self)],
                defaultTimeout: settings.requestTimeout,
                deadline: settings.callDeadline
            )
        }
    }
}
