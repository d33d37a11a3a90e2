import MovieAPI
import Movies
import Networking
import Swinject

/// How the app obtains and renews its credential: the OAuth token endpoint, or the original
/// site's plain-text token against production.
struct AuthAssembly: Assembly {
    let settings: AppSettings

    func assemble(container: Container) {
        let settings = self.settings
        container.register((any AuthService).self) { resolver in
            let client = resolver.resolved(APIClient.self, name: ApiAssembly.tokenClient)
            switch settings.environment {
            case .production:
                return LegacyTokenAuthService(client: client)
            case .embedded, .custom, .stub:
                return ApiAuthService(client: client, clientID: settings.clientCredentials.id, clientSecret: settings.clientCredentials.secret)
            }
        }

        container.register(ApiAuthenticator.self) { resolver in
            let header: AuthorizationHeader = settings.environment == .production ? .custom(.init("AUTH_TOKEN")!) : .bearer
            return ApiAuthenticator(authService: resolver.resolved(), header: header)
        }

        // One interceptor per run: its single-flight renewal only works if every client shares it.
        container.register(AuthenticationInterceptor<ApiAuthenticator>.self) { resolver in
            AuthenticationInterceptor(authenticator: resolver.resolved(), store: resolver.resolved((any ApiContext).self))
        }.inObjectScope(.container)
    }
}
