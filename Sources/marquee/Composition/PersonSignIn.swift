import Foundation
import MovieAPI
import MovieStore
import Networking

/// A person signed in during a run (from `browse`): the device flow against the run's API, and the
/// sync of their watchlist with their own credential, on the run's transport.
struct PersonSignIn: Sendable {
    let settings: AppSettings
    let transport: any Transport

    /// The device flow with the client's credentials.
    var deviceSignIn: DeviceSignIn {
        DeviceSignIn(client: APIClient(baseURL: settings.environment.baseURL, transport: transport), clientCredentials: settings.clientCredentials)
    }

    /// `person`'s watchlist, keyed `api` in the store: synced and followed live with their credential.
    func watchlist(store: MovieStore, api: String, person: String) -> AppWatchlist {
        let stack = APIClientStack(
            context: FileAPIContext(environment: settings.environment, fileURL: settings.credentialsFile, holder: .person(account: person)),
            transport: transport, clientCredentials: settings.clientCredentials, person: person,
            requestTimeout: settings.requestTimeout, callDeadline: settings.callDeadline, curlPlaceholders: settings.curlPlaceholders
        )
        let sync = WatchlistSync(service: APIWatchlistService(client: stack.client), store: store, api: api)
        return AppWatchlist(store: store, api: api, home: .server, sync: sync, feed: APILiveFeed(client: stack.client))
    }
}
