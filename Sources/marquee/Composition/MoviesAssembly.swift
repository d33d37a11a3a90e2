import Logging
import MovieAPI
import MovieStore
import Movies
import Networking
import Swinject

/// The movie services: the API's, and the store decorating it, which is what the app uses.
struct MoviesAssembly: Assembly {
    let settings: AppSettings

    func assemble(container: Container) {
        let settings = self.settings
        container.register(MovieStore.self) { _ in settings.store }.inObjectScope(.container)

        container.register(APIMovieService.self) { resolver in
            APIMovieService(client: resolver.resolved())
        }

        container.register(APIWatchlistService.self) { resolver in
            APIWatchlistService(client: resolver.resolved())
        }

        container.register((any OfflineMovieService<NetworkError>).self) { resolver in
            CachedMovieService(
                base: resolver.resolved(APIMovieService.self),
                store: resolver.resolved(),
                api: settings.environment.identity.key,
                defaultPolicy: settings.defaultPolicy,
                logger: Logger(label: "marquee.store")
            )
        }.inObjectScope(.container)
    }
}
