import MovieContract
import MovieStore
import Networking
import TextFormatting

/// `marquee sync` for the shelf: each kind's pending changes sent, its records fetched, and one
/// line said per kind.
enum ShelfSyncing {
    static func syncEveryKind(_ watchlist: AppWatchlist) async throws {
        guard let shelf = watchlist.shelf else { return }
        try await sync(Ratings.self, shelf, watchlist, named: "ratings", counted: "rating")
        try await sync(Diary.self, shelf, watchlist, named: "the diary", counted: "viewing")
        try await sync(Lists.self, shelf, watchlist, named: "lists", counted: "list")
        try await sync(ListItems.self, shelf, watchlist, named: "the lists' movies", counted: "movie")
    }

    /// Syncs every kind without a word; what to tell the person when one could not be synced.
    static func syncQuietly(_ shelf: AppShelfSync) async -> String? {
        func sync<Kind: ShelfKind>(_ kind: Kind.Type) async -> String? {
            do throws(ShelfSyncFailure<NetworkError>) {
                _ = try await shelf.sync(kind)
                return nil
            } catch {
                return ShelfText.describe(error)
            }
        }
        for kind in ShelfKinds.all {
            if let problem = await sync(kind) { return problem }
        }
        return nil
    }

    private static func sync<Kind: ShelfKind>(_ kind: Kind.Type, _ shelf: AppShelfSync, _ watchlist: AppWatchlist, named title: String, counted noun: String) async throws {
        do throws(ShelfSyncFailure<NetworkError>) {
            let report = try await shelf.sync(kind)
            let held = (try? await watchlist.store.shelf(kind, api: watchlist.api).lines.count) ?? 0
            // A kind never used is not named: most people's sync is about their watchlist.
            guard report.delivered > 0 || held > 0 else { return }
            var line = "Synced \(title): sent \(NumberText.counted(report.delivered, "change")); \(NumberText.counted(held, noun)) here."
            if !report.unknownListChanges.isEmpty {
                line += " \(NumberText.counted(report.unknownListChanges.count, "change")) dropped: the list was deleted on another device."
            }
            print(line)
        } catch {
            let pending = (try? await watchlist.store.pendingShelfChanges(kind: Kind.name, api: watchlist.api).count) ?? 0
            throw CLIError.failed("sync of \(title): \(ShelfText.describe(error)); \(NumberText.counted(pending, "change")) still pending on this machine")
        }
    }
}
