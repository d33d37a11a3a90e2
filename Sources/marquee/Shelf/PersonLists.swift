import Foundation
import MovieContract
import MovieStore
import TextFormatting

/// A person's lists and their items as this machine sees them, and how a command names one: by
/// its name where no other list has it, else by the start of its id.
struct PersonLists {
    struct List {
        var id: String
        var name: String
        var description: String
        var isPending: Bool
    }

    struct Item {
        var movieID: Int
        var position: String
        var note: String
        var title: String?
        var year: Int?
        var isPending: Bool
    }

    let lists: [List]
    let items: ShelfView<ListItems>
    let pendingCount: Int

    static func read(_ watchlist: AppWatchlist) async throws -> PersonLists {
        do {
            let lists = try await watchlist.store.shelf(Lists.self, api: watchlist.api)
            let items = try await watchlist.store.shelf(ListItems.self, api: watchlist.api)
            return PersonLists(
                lists: lists.lines.map { List(id: $0.key, name: $0.value.name, description: $0.value.description, isPending: $0.isPending) }
                    .sorted { ($0.name.lowercased(), $0.id) < ($1.name.lowercased(), $1.id) },
                items: items, pendingCount: lists.pendingCount + items.pendingCount
            )
        } catch {
            throw CLIError.failed(ErrorReporter.describe(error))
        }
    }

    /// The list `text` names: its name (any case) where only one list has it, else the start of its id.
    func list(named text: String) throws -> List {
        let named = lists.filter { $0.name.lowercased() == text.lowercased() }
        if named.count == 1 { return named[0] }
        let byID = text.count >= 4 ? lists.filter { $0.id.hasPrefix(text.lowercased()) } : []
        if byID.count == 1 { return byID[0] }
        if named.count > 1 || byID.count > 1 {
            throw CLIError.failed("\(max(named.count, byID.count)) lists answer to '\(TerminalText.safe(String(text.prefix(60))))': name one by the start of its id, as 'marquee lists' shows it")
        }
        throw CLIError.failed("you have no list named '\(TerminalText.safe(String(text.prefix(60))))': 'marquee lists' shows yours, 'marquee list create NAME' makes one")
    }

    /// The items of `list`, in its order: by position, then by movie id.
    func items(of list: List) -> [Item] {
        let prefix = ShelfKeys.start(of: list.id)
        return items.lines.compactMap { line -> Item? in
            guard line.key.hasPrefix(prefix), let movieID = ListItems.movieID(key: line.key, value: line.value) else { return nil }
            return Item(movieID: movieID, position: line.value.position, note: line.value.note, title: line.title, year: line.year, isPending: line.isPending)
        }.sorted { ($0.position, $0.movieID) < ($1.position, $1.movieID) }
    }
}
