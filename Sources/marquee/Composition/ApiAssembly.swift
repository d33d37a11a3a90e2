import MovieAPI
import Movies
import Networking
import ReferenceAPI
import Swinject

/// The API's shared pieces: one context, one transport, and one client stack built on them
/// (its authenticated client, token client, auth service and interceptor).
struct ApiAssembly: Assembly {
    static let tokenClient = "token"

    let settings: AppSettings

    func assemble(container: Container) {
        let settings = self.settings
        container.register((any ApiContext).self) { _ -> any ApiContext in
            settings.keepsCredential
                ? FileApiContext(environment: settings.environment, fileURL: settings.credentialsFile)
                : InMemoryApiContext(environment: settings.environment)
        }.inObjectScope(.container)

        container.register((any Transport).self) { _ -> any Transport in
            if let scenario = settings.stubScenario { return ReferenceStubs.transport(scenario: scenario) }
            return AsyncHTTPClientTransport()
        }.inObjectScope(.container)

        // One stack per run: its interceptor's single-flight renewal only works if every client shares it.
        container.register(ApiClientStack.self) { resolver in
            ApiClientStack(
                context: resolver.resolved(),
                transport: resolver.resolved(),
                clientCredentials: settings.clientCredentials,
                requestTimeout: settings.requestTimeout,
                callDeadline: settings.callDeadline
            )
        }.inObjectScope(.container)

        container.register(APIClient.self) { resolver in resolver.resolved(ApiClientStack.self).client }
        container.register(APIClient.self, name: Self.tokenClient) { resolver in resolver.resolved(ApiClientStack.self).tokenClient }
        container.register((any AuthService).self) { resolver in resolver.resolved(ApiClientStack.self).authService }
        container.register(AuthenticationInterceptor<ApiAuthenticator>.self) { resolver in
            resolver.resolved(ApiClientStack.self).interceptor
        }
    }
}
