import Foundation
import MovieAPI
import MovieBrowser
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
        return AppWatchlist(
            store: store, api: api, home: .server, sync: sync, feed: APILiveFeed(client: stack.client),
            shelf: ShelfSync(service: APIShelfService(client: stack.client), store: store, api: api)
        )
    }

    /// Signs a person in from `browse` with the device flow, showing the code on screen, and gives
    /// their watchlist (their credential stored as `marquee login` stores it).
    func signInFromBrowser(
        environment: APIEnvironment, store: MovieStore, show: @escaping @Sendable (BrowserSignIn) -> Void
    ) async -> Swift.Result<(AppWatchlist, account: String), SigningInWatchlist.SignInFailure> {
        show(.starting)
        let signIn = deviceSignIn
        do {
            let offer = try await signIn.start(deviceName: "marquee browse on \(ProcessInfo.processInfo.hostName)", api: environment.identity.description)
            show(.code(page: offer.verificationURI, userCode: offer.userCode, complete: offer.verificationURIComplete))
            let credential = try await signIn.waitForApproval(of: offer)
            guard let account = TokenSubject.of(credential.accessToken) else { return .failure(.init(reason: "the server's token names no account")) }
            let context = FileAPIContext(environment: environment, fileURL: AppPaths.credentialsFile(), holder: .person(account: account))
            try await context.storeSignIn(credential, account: account)
            let key = WatchlistScope.key(api: environment.identity.key, account: account)
            return .success((watchlist(store: store, api: key, person: account), account))
        } catch {
            return .failure(.init(reason: "not signed in: \(ErrorReporter.describe(error))"))
        }
    }
}
