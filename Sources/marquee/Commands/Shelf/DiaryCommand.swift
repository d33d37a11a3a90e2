import ArgumentParser
import Foundation
import Logging
import MovieContract
import MovieStore
import TextFormatting

/// `marquee diary [--year Y] [--json]` and `marquee diary remove ENTRY`.
struct DiaryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diary",
        abstract: "Show the diary of what you watched, newest first, or remove an entry.",
        subcommands: [DiaryListCommand.self, DiaryRemoveCommand.self],
        defaultSubcommand: DiaryListCommand.self
    )
}

/// `marquee diary [list] [--year Y] [--json]`.
struct DiaryListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Show the diary, newest viewing first.",
        discussion: "Online, sends pending entries and fetches the server's first; --offline reads the store only. Each entry's id (its first 8 characters are enough) is what 'marquee diary remove' takes."
    )

    @Option(help: ArgumentHelp("Only the viewings of this year.", valueName: "year"))
    var year: Int?

    @Flag(help: "Print JSON instead of a table (with --follow, one object a line after it).")
    var json = false

    @Flag(help: "Show the diary, then print each change as it arrives from the server, until Ctrl-C.")
    var follow = false

    @OptionGroup var options: WatchlistClientOptions
    var client: ClientOptions { options.client }

    func validate() throws {
        if follow, client.offline { throw ValidationError("--follow needs the network: it cannot be used with --offline") }
        if let year, !(1888...9999).contains(year) { throw ValidationError("the year must be from 1888 to 9999, not \(year)") }
        try options.refusePolicy(for: "diary", "it shows the diary stored here after sending and fetching it; --offline reads the store only")
    }

    func run() async throws {
        try await CompositionRoot.withWatchlist(client.offline ? client.offlineOnly : client, showsOnly: true) { watchlist in
            if let problem = try await ShelfSending.refresh(Diary.self, watchlist) {
                Logger(label: "marquee").warning("showing the diary kept on this machine: \(problem)")
            }
            let view: ShelfView<Diary>
            do { view = try await watchlist.store.shelf(Diary.self, api: watchlist.api) } catch { throw CLIError.failed(ErrorReporter.describe(error)) }
            let rows = await DiaryOutput.rows(view, year: year, in: watchlist)
            if json {
                try DiaryOutput.printJSON(rows, pending: view.pendingCount)
            } else {
                DiaryOutput.printTable(rows, pending: view.pendingCount, home: watchlist.home, year: year)
            }
            guard follow else { return }
            fflush(nil)
            try await ShelfFollow.run(watchlist, kinds: [Diary.self], json: json) { await ShelfFollowLines.diary($0, in: watchlist) }
        }
    }
}

/// `marquee diary remove ENTRY`.
struct DiaryRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove an entry from the diary; works offline.",
        discussion: "ENTRY is an entry's id as 'marquee diary' shows it: its first 8 characters, or as many as make it the only one."
    )

    @Argument(help: ArgumentHelp("The entry's id, or the start of it (at least 4 characters).", valueName: "entry"))
    var entry: String

    @OptionGroup var options: WatchlistClientOptions
    var client: ClientOptions { options.client }

    func validate() throws {
        guard entry.count >= 4, Diary.problem(withKey: entry) == nil else {
            throw ValidationError("'\(entry.prefix(40))' is not an entry id: give at least its first 4 characters, as 'marquee diary' shows them")
        }
        try options.refusePolicy(for: "diary remove", WatchAddCommand.sendingRule)
    }

    func run() async throws {
        try await CompositionRoot.withWatchlist(client) { watchlist in
            if watchlist.shelf != nil { _ = try? await watchlist.shelf?.pull(Diary.self) }
            let view: ShelfView<Diary>
            do { view = try await watchlist.store.shelf(Diary.self, api: watchlist.api) } catch { throw CLIError.failed(ErrorReporter.describe(error)) }
            let matches = view.lines.filter { $0.key.hasPrefix(entry.lowercased()) }
            guard let line = matches.first else { throw CLIError.failed("no diary entry has an id starting '\(entry)': 'marquee diary' lists them") }
            guard matches.count == 1 else {
                throw CLIError.failed("\(matches.count) diary entries have ids starting '\(entry)': give more of the id")
            }
            do { _ = try await watchlist.store.recordShelfChange(Diary.self, key: line.key, value: nil, api: watchlist.api) } catch {
                throw CLIError.failed(ErrorReporter.describe(error))
            }
            let delivery = await ShelfSending.send(Diary.self, watchlist, offline: client.offline)
            let name = line.title.map { "\(TerminalText.safe($0)) (\(line.value.movieId))" } ?? "movie \(line.value.movieId)"
            print("Removed the viewing of \(name) on \(line.value.watchedOn) from the diary; \(try delivery.sentence())")
        }
    }
}

extension DiaryListCommand: ParsableCommandWithClient {}
extension DiaryRemoveCommand: ParsableCommandWithClient {}
