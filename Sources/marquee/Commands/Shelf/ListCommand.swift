import ArgumentParser
import Foundation
import MovieContract
import MovieStore
import TextFormatting

/// `marquee list …`: make, change and show one of the person's lists.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Make, change and show your lists; works offline.",
        discussion: """
            LIST is a list's name, where no other of your lists has it, else the start of its id (at least 4 \
            characters) as 'marquee lists' shows it. Changes are written on this machine first and sent to the \
            server now if it answers, else by the next command that uses the network.
            """,
        subcommands: [
            ListCreateCommand.self, ListRenameCommand.self, ListDeleteCommand.self, ListAddCommand.self,
            ListRemoveCommand.self, ListMoveCommand.self, ListShowCommand.self,
        ]
    )

    /// Runs `body` on the person's lists as this machine sees them (the server's fetched first),
    /// then sends what it recorded and prints its sentence with what became of it.
    static func change(_ options: ClientOptions, _ body: (AppWatchlist, PersonLists) async throws -> String) async throws {
        try await CompositionRoot.withWatchlist(options) { watchlist in
            if watchlist.shelf != nil {
                for kind in [Lists.self, ListItems.self] as [any ShelfKind.Type] { _ = try? await pull(kind, watchlist) }
            }
            let sentence = try await body(watchlist, try await PersonLists.read(watchlist))
            var delivery = await ShelfSending.send(Lists.self, watchlist, offline: options.offline)
            if delivery.reachedServer { delivery = await ShelfSending.send(ListItems.self, watchlist, offline: options.offline) }
            print("\(sentence); \(try delivery.sentence())")
        }
    }

    private static func pull(_ kind: any ShelfKind.Type, _ watchlist: AppWatchlist) async throws {
        func open<Kind: ShelfKind>(_ kind: Kind.Type) async throws { try await watchlist.shelf?.pull(kind) }
        try await open(kind)
    }

    /// Records `item` at `place` (0 is the top) among `others`, and the new places of every item
    /// when its own would have grown too long (``FractionalPosition/placing(at:among:)``).
    static func place(_ item: PersonLists.Item, at place: Int, among others: [PersonLists.Item], of list: PersonLists.List, in watchlist: AppWatchlist) async throws {
        var placed = others
        placed.insert(item, at: min(place, others.count))
        for (index, position) in FractionalPosition.placing(at: place, among: others.map(\.position)).sorted(by: { $0.key < $1.key }) {
            let moving = placed[index]
            try await record(ListItems.self, key: ListItems.key(list: list.id, movieID: moving.movieID), value: .init(position: position, note: moving.note), in: watchlist)
        }
    }

    static func record<Kind: ShelfKind>(_ kind: Kind.Type, key: String, value: Kind.Value?, in watchlist: AppWatchlist) async throws {
        do { _ = try await watchlist.store.recordShelfChange(kind, key: key, value: value, api: watchlist.api) } catch {
            throw CLIError.failed(ErrorReporter.describe(error))
        }
    }
}

/// `marquee list create NAME [--description TEXT]`.
struct ListCreateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "create", abstract: "Make a new list.")

    @Argument(help: ArgumentHelp("Its name (at most \(Lists.nameLength) characters).", valueName: "name"))
    var name: String

    @Option(help: ArgumentHelp("What the list is for (at most \(WatchlistNote.maximumLength) characters).", valueName: "text"))
    var description = ""

    @OptionGroup var options: WatchlistClientOptions
    var client: ClientOptions { options.client }

    func validate() throws {
        if let problem = Lists.problem(with: .init(name: name, description: description), key: "x") { throw ValidationError(problem) }
        try options.refusePolicy(for: "list create", WatchAddCommand.sendingRule)
    }

    func run() async throws {
        try await ListCommand.change(client) { watchlist, lists in
            if lists.lists.contains(where: { $0.name.lowercased() == name.lowercased() }) {
                throw CLIError.failed("you have a list named '\(TerminalText.safe(name))' already: pick another name (nothing was changed)")
            }
            let id = UUID().uuidString.lowercased()
            try await ListCommand.record(Lists.self, key: id, value: .init(name: name, description: description), in: watchlist)
            return "Made the list '\(TerminalText.safe(name))' (id \(id.prefix(8)))"
        }
    }
}

/// `marquee list rename LIST NAME`.
struct ListRenameCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rename", abstract: "Give a list another name.")

    @Argument(help: "The list.") var list: String
    @Argument(help: ArgumentHelp("Its new name.", valueName: "name")) var name: String
    @OptionGroup var options: WatchlistClientOptions
    var client: ClientOptions { options.client }

    func validate() throws {
        if let problem = Lists.nameProblem(name) { throw ValidationError(problem) }
    }

    func run() async throws {
        try await ListCommand.change(client) { watchlist, lists in
            let found = try lists.list(named: list)
            if lists.lists.contains(where: { $0.id != found.id && $0.name.lowercased() == name.lowercased() }) {
                throw CLIError.failed("you have a list named '\(TerminalText.safe(name))' already: pick another name (nothing was changed)")
            }
            try await ListCommand.record(Lists.self, key: found.id, value: .init(name: name, description: found.description), in: watchlist)
            return "Renamed '\(TerminalText.safe(found.name))' to '\(TerminalText.safe(name))'"
        }
    }
}

/// `marquee list delete LIST`.
struct ListDeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete a list and its items.")

    @Argument(help: "The list.") var list: String
    @OptionGroup var options: WatchlistClientOptions
    var client: ClientOptions { options.client }

    func run() async throws {
        try await ListCommand.change(client) { watchlist, lists in
            let found = try lists.list(named: list)
            let items = lists.items(of: found)
            try await ListCommand.record(Lists.self, key: found.id, value: nil, in: watchlist)
            for item in items {
                try await ListCommand.record(ListItems.self, key: ListItems.key(list: found.id, movieID: item.movieID), value: nil, in: watchlist)
            }
            return "Deleted the list '\(TerminalText.safe(found.name))' and its \(NumberText.counted(items.count, "movie"))"
        }
    }
}

/// `marquee list add LIST ID [--note TEXT]`: the movie goes last.
struct ListAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a movie at the end of a list, or change its note.")

    @Argument(help: "The list.") var list: String
    @Argument(help: "The movie's id.", transform: MovieIDArgument.parse) var id: Int
    @Option(help: ArgumentHelp("A note kept with the movie on this list.", valueName: "text")) var note: String?
    @OptionGroup var options: WatchlistClientOptions
    var client: ClientOptions { options.client }

    func validate() throws {
        if id == 0 { throw ValidationError("there is no movie 0: ids start at 1") }
        if let note, let problem = WatchlistNote.problem(with: note) { throw ValidationError(problem) }
    }

    func run() async throws {
        try await ListCommand.change(client) { watchlist, lists in
            let found = try lists.list(named: list)
            let items = lists.items(of: found)
            let name = await ShelfNames.movie(id, in: watchlist)
            if let present = items.first(where: { $0.movieID == id }) {
                guard let note else { throw CLIError.failed("\(name) is on '\(TerminalText.safe(found.name))' already (nothing was changed)") }
                try await ListCommand.record(ListItems.self, key: ListItems.key(list: found.id, movieID: id), value: .init(position: present.position, note: note), in: watchlist)
                return "Noted \(name) on '\(TerminalText.safe(found.name))'"
            }
            guard items.count < ListItems.itemLimit else {
                throw CLIError.failed("'\(TerminalText.safe(found.name))' holds \(NumberText.grouped(ListItems.itemLimit)) movies, the most a list holds (nothing was changed)")
            }
            let adding = PersonLists.Item(movieID: id, position: "", note: note ?? "", isPending: true)
            try await ListCommand.place(adding, at: items.count, among: items, of: found, in: watchlist)
            return "Added \(name) to '\(TerminalText.safe(found.name))', at \(items.count + 1)"
        }
    }
}

/// `marquee list remove LIST ID`.
struct ListRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Take a movie off a list.")

    @Argument(help: "The list.") var list: String
    @Argument(help: "The movie's id.", transform: MovieIDArgument.parse) var id: Int
    @OptionGroup var options: WatchlistClientOptions
    var client: ClientOptions { options.client }

    func run() async throws {
        try await ListCommand.change(client) { watchlist, lists in
            let found = try lists.list(named: list)
            let name = await ShelfNames.movie(id, in: watchlist)
            guard lists.items(of: found).contains(where: { $0.movieID == id }) else {
                throw CLIError.failed("\(name) is not on '\(TerminalText.safe(found.name))' (nothing was changed)")
            }
            try await ListCommand.record(ListItems.self, key: ListItems.key(list: found.id, movieID: id), value: nil, in: watchlist)
            return "Took \(name) off '\(TerminalText.safe(found.name))'"
        }
    }
}

/// `marquee list move LIST ID --to POSITION`.
struct ListMoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "move", abstract: "Move a movie to another place on a list (1 is the top).")

    @Argument(help: "The list.") var list: String
    @Argument(help: "The movie's id.", transform: MovieIDArgument.parse) var id: Int
    @Option(help: ArgumentHelp("Its new place: 1 is the top; past the end is the end.", valueName: "position")) var to: Int
    @OptionGroup var options: WatchlistClientOptions
    var client: ClientOptions { options.client }

    func validate() throws {
        if to < 1 { throw ValidationError("a place on a list is 1 (the top) or more, not \(to)") }
    }

    func run() async throws {
        try await ListCommand.change(client) { watchlist, lists in
            let found = try lists.list(named: list)
            var items = lists.items(of: found)
            let name = await ShelfNames.movie(id, in: watchlist)
            guard let index = items.firstIndex(where: { $0.movieID == id }) else {
                throw CLIError.failed("\(name) is not on '\(TerminalText.safe(found.name))' (nothing was changed)")
            }
            let moving = items.remove(at: index)
            let place = min(to, items.count + 1)
            try await ListCommand.place(moving, at: place - 1, among: items, of: found, in: watchlist)
            return "Moved \(name) to \(place) on '\(TerminalText.safe(found.name))'"
        }
    }
}

/// `marquee list show LIST [--json]`.
struct ListShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show a list's movies in its order.")

    @Argument(help: "The list.") var list: String
    @Flag(help: "Print JSON instead of a table (with --follow, one object a line after it).") var json = false
    @Flag(help: "Show the list, then print each change of it as it arrives from the server, until Ctrl-C.") var follow = false
    @OptionGroup var options: WatchlistClientOptions
    var client: ClientOptions { options.client }

    func validate() throws {
        if follow, client.offline { throw ValidationError("--follow needs the network: it cannot be used with --offline") }
    }

    func run() async throws {
        try await CompositionRoot.withWatchlist(client.offline ? client.offlineOnly : client, showsOnly: true) { watchlist in
            try await show(watchlist)
        }
    }

    private func show(_ watchlist: AppWatchlist) async throws {
        do {
            try await ListRefresh.refresh(watchlist)
            let lists = try await PersonLists.read(watchlist)
            let found = try lists.list(named: list)
            var items = lists.items(of: found)
            for index in items.indices where items[index].title == nil {
                if let movie = (try? await watchlist.store.movie(id: items[index].movieID, api: WatchlistScope.api(of: watchlist.api))).flatMap({ $0 })?.value {
                    items[index].title = movie.name
                    items[index].year = movie.year
                }
            }
            if json {
                struct Row: Encodable { let place: Int; let movieId: Int; let title: String?; let year: Int?; let note: String; let pending: Bool }
                struct Document: Encodable { let id: String; let name: String; let description: String; let movies: [Row] }
                let rows = items.enumerated().map { Row(place: $0.offset + 1, movieId: $0.element.movieID, title: $0.element.title, year: $0.element.year, note: $0.element.note, pending: $0.element.isPending) }
                try ShelfJSONOutput.print(Document(id: found.id, name: found.name, description: found.description, movies: rows))
                try await followIfAsked(watchlist, found)
                return
            }
            print(TerminalText.safe(found.name) + (found.description.isEmpty ? "" : " — " + TerminalText.safe(found.description)) + " (" + NumberText.counted(items.count, "movie") + ")")
            if items.isEmpty { print("  (empty: 'marquee list add LIST ID' adds a movie)") }
            let idWidth = max(2, items.map { String($0.movieID).count }.max() ?? 2)
            for (place, item) in items.enumerated() {
                var line = "  " + DisplayWidth.fit(String(place + 1), to: 4, alignRight: true) + "  " + DisplayWidth.fit(String(item.movieID), to: idWidth, alignRight: true) + "  "
                line += TerminalText.safe(item.title.map { "\($0) (\(item.year.map(String.init) ?? "?"))" } ?? "(title not fetched here)")
                if !item.note.isEmpty { line += "  " + TerminalText.safe(item.note) }
                if item.isPending, watchlist.home == .server { line += "  [pending]" }
                print(line)
            }
            try await followIfAsked(watchlist, found)
        }
    }

    private func followIfAsked(_ watchlist: AppWatchlist, _ list: PersonLists.List) async throws {
        guard follow else { return }
        fflush(nil)
        try await ShelfFollow.run(watchlist, kinds: [Lists.self, ListItems.self], json: json) { change in
            await ShelfFollowLines.list(change, list: list.id, in: watchlist)
        }
    }
}

extension ListCreateCommand: ParsableCommandWithClient {}
extension ListRenameCommand: ParsableCommandWithClient {}
extension ListDeleteCommand: ParsableCommandWithClient {}
extension ListAddCommand: ParsableCommandWithClient {}
extension ListRemoveCommand: ParsableCommandWithClient {}
extension ListMoveCommand: ParsableCommandWithClient {}
extension ListShowCommand: ParsableCommandWithClient {}
