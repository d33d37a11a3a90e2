import ArgumentParser
import Foundation
import Logging
import MovieContract
import MovieStore
import TextFormatting

/// `marquee lists [--json]`: the person's lists.
struct ListsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lists",
        abstract: "Show your lists, with how many movies each holds.",
        discussion: "Online, sends pending changes and fetches the server's lists first; --offline reads the store only."
    )

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    @OptionGroup var options: WatchlistClientOptions
    var client: ClientOptions { options.client }

    func validate() throws {
        try options.refusePolicy(for: "lists", "it shows the lists stored here after sending and fetching them; --offline reads the store only")
    }

    func run() async throws {
        try await CompositionRoot.withWatchlist(client.offline ? client.offlineOnly : client, showsOnly: true) { watchlist in
            try await ListRefresh.refresh(watchlist)
            let lists = try await PersonLists.read(watchlist)
            if json {
                struct Row: Encodable { let id: String; let name: String; let description: String; let items: Int; let pending: Bool }
                struct Document: Encodable { let pendingChanges: Int; let lists: [Row] }
                let rows = lists.lists.map { Row(id: $0.id, name: $0.name, description: $0.description, items: lists.items(of: $0).count, pending: $0.isPending) }
                try ShelfJSONOutput.print(Document(pendingChanges: lists.pendingCount, lists: rows))
                return
            }
            var header = "Lists"
            if lists.pendingCount > 0, watchlist.home == .server { header += ", \(NumberText.counted(lists.pendingCount, "change")) pending: 'marquee sync' sends them" }
            print(header)
            guard !lists.lists.isEmpty else {
                print("  (none yet: 'marquee list create NAME' makes one)")
                return
            }
            for list in lists.lists {
                var line = "  " + String(list.id.prefix(8)) + "  " + TerminalText.safe(list.name) + "  (" + NumberText.counted(lists.items(of: list).count, "movie") + ")"
                if !list.description.isEmpty { line += "  " + TerminalText.safe(list.description) }
                if list.isPending, watchlist.home == .server { line += "  [pending]" }
                print(line)
            }
        }
    }
}

extension ListsCommand: ParsableCommandWithClient {}

/// Sends the lists' pending changes and fetches both kinds, before a list is shown or changed.
enum ListRefresh {
    static func refresh(_ watchlist: AppWatchlist) async throws {
        for kind in [Lists.self, ListItems.self] as [any ShelfKind.Type] {
            if let problem = try await refresh(kind, watchlist) {
                Logger(label: "marquee").warning("showing the lists kept on this machine: \(problem)")
                return
            }
        }
    }

    private static func refresh(_ kind: any ShelfKind.Type, _ watchlist: AppWatchlist) async throws -> String? {
        func open<Kind: ShelfKind>(_ kind: Kind.Type) async throws -> String? { try await ShelfSending.refresh(kind, watchlist) }
        return try await open(kind)
    }
}

/// Pretty JSON, keys sorted, as every `--json` of the shelf prints.
enum ShelfJSONOutput {
    static func print(_ document: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        Swift.print(String(decoding: try encoder.encode(document), as: UTF8.self))
    }
}
