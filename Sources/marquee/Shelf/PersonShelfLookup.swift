import Foundation
import MovieContract
import MovieStore

/// What the store holds of the person's shelf for one movie, read without the network, for the
/// pages that show a movie: nothing when nobody is signed in or the store cannot be read.
enum PersonShelfLookup {
    static func rating(movieID: Int, options: ClientOptions) async -> Int? {
        guard let selection = try? options.api.selection,
              FileManager.default.fileExists(atPath: options.api.storeURL.path),
              let store = try? MovieStore(url: options.api.storeURL) else { return nil }
        let policy = SignInPolicy(options, selection: selection)
        let person = (try? policy.choice())?.flatMap { $0.signedIn ? $0.account : nil }
        if policy.home == .server, person == nil { return nil }
        let scope = WatchlistScope.key(api: selection.identity.key, account: person)
        return (try? await store.shelf(Ratings.self, api: scope))?.line(String(movieID))?.value.score
    }
}
