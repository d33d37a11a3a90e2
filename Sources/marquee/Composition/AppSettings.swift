import Foundation
import MovieAPI
import MovieStore
import Networking

/// What the composition root needs to know to wire the app, and the resources made for it
/// before wiring (the open store, the embedded server's address).
struct AppSettings {
    /// The API and where it is reached this run.
    var environment: APIEnvironment
    /// The scenario the stub plays, when the API is the stub.
    var stubScenario: StubScenario?
    var store: MovieStore
    var defaultPolicy: CachePolicy
    var clientCredentials: APIClientCredentials = ClientSecrets.fromEnvironment()
    /// The variables `--curl` prints for credentials: `${MARQUEE_ACCESS_TOKEN}`.
    var curlPlaceholders = CurlCommand.Placeholders(prefix: "MARQUEE_")
    /// Where the credential of an API that outlives this run is kept.
    var credentialsFile: URL = AppPaths.credentialsFile()

    /// The signed-in account whose watchlist this run syncs, when there is one: its requests go
    /// with the person's credential, the catalogue's with the client's own.
    var person: String?

    /// `--timeout`, when given.
    var chosenTimeout: Duration?

    /// How long one attempt may take: `--timeout`, else 30 s, or 2 s for the stub, so its
    /// timeout scenario ends quickly.
    var requestTimeout: Duration { chosenTimeout ?? (stubScenario == nil ? .seconds(30) : .seconds(2)) }
    /// How long one call may take across its retries: twice `--timeout` when given, else a
    /// minute (3 s for the stub).
    var callDeadline: Duration {
        if let chosenTimeout { return chosenTimeout * 2 }
        return stubScenario == nil ? .seconds(60) : .seconds(3)
    }

    /// Whether the credential is worth keeping for the next run: an API that outlives this process.
    var keepsCredential: Bool {
        switch environment.identity {
        case .production, .custom: true
        case .embedded, .stub: false
        }
    }
}
