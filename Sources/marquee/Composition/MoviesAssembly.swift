import Logging
import MovieAPI
import MovieStore
import Movies
import Networking
import Swinject

/// The movie services: the API's, and the store decorating it, which is what the app uses.
struct MoviesAssembly: Assembly {
    static let api = "api"

    let settings: AppSettings

    func assemble(container: Container) {
        let settings = self.settings
        container.register(MovieStore.self) { _ in settings.store }.inObjectScope(.container)

        container.register((any MovieService).self, name: Self.api) { resolver in
            APIMovieService(client: resolver.resolved())
        }

        container.register(CachedMovieService.self) { resolver in
            CachedMovieService(
                base: resolver.resolved((any MovieService).self, name: Self.api),
                store: resolver.resolved(),
                api: settings.environment.identity.key,
                defaultPolicy: settings.defaultPolicy,
                logger: Logger(label: "marquee.store")
            )
        }.inObjectScope(.container)
        .implements((any OfflineMovieService).self, (any MovieService).self)
    }
}
