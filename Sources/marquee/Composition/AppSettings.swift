import Foundation
import MovieServer
import MovieAPI
import MovieStore

/// What the composition root needs to know to wire the app, and the resources made for it
/// before wiring (the open store).
struct AppSettings {
    var environment: AppEnvironment
    var store: MovieStore
    var defaultPolicy: CachePolicy
    var clientCredentials: ClientCredentials = ClientSecrets.fromEnvironment()
    /// Where the credential of an API that outlives this run is kept.
    var credentialsFile: URL = FileApiContext.defaultFileURL()
    /// How long one attempt may take; short for a stub, so its timeout scenario ends quickly.
    var requestTimeout: Duration = .seconds(30)
    /// How long one call may take across its retries.
    var callDeadline: Duration = .seconds(60)
}
