import ArgumentParser
import Foundation
import MovieAPI
import MovieStore
import Movies
import TextFormatting

/// `marquee watch add ID [--note TEXT]` and `marquee watch remove ID`: change the watchlist.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Add a movie to the watchlist or remove it; works offline.",
        discussion: """
            The change is written on this machine first and shown at once by 'marquee watchlist'; it is \
            then sent to the server, now if it answers, else by the next command that uses the network.
            """,
        subcommands: [WatchAddCommand.self, WatchRemoveCommand.self]
    )
}

/// `marquee watch add ID [--note TEXT]`.
struct WatchAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a movie to the watchlist, or change its note.")

    @Argument(help: "The movie's id (shown by every list).")
    var id: Int

    @Option(help: ArgumentHelp("A note kept with the movie (at most \(WatchlistNote.maximumLength) characters, no control characters).", valueName: "text"))
    var note: String = ""

    @OptionGroup var client: ClientOptions

    func validate() throws {
        guard id >= 0 else { throw ValidationError("the movie id must be 0 or more, not \(id)") }
        if let problem = WatchlistNote.problem(with: note) { throw ValidationError(problem) }
    }

    func run() async throws {
        try await WatchChange.make(.add, movieID: id, note: note, client)
    }
}

/// `marquee watch remove ID`.
struct WatchRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a movie from the watchlist.")

    @Argument(help: "The movie's id.")
    var id: Int

    @OptionGroup var client: ClientOptions

    func validate() throws {
        guard id >= 0 else { throw ValidationError("the movie id must be 0 or more, not \(id)") }
    }

    func run() async throws {
        try await WatchChange.make(.remove, movieID: id, note: "", client)
    }
}

extension WatchAddCommand: ParsableCommandWithClient {}
extension WatchRemoveCommand: ParsableCommandWithClient {}

/// One change made by `watch add` or `watch remove`: written to the outbox, then sent when
/// the server can be reached; the command succeeds either way, and says where the change is.
enum WatchChange {
    static func make(_ action: WatchlistChangeRecord.Action, movieID: Int, note: String, _ options: ClientOptions) async throws {
        try await CompositionRoot.withWatchlist(options) { watchlist in
            let store = watchlist.store
            do {
                _ = try await store.recordWatchlistChange(movieID: movieID, action: action, note: note, api: watchlist.api)
            } catch {
                throw CLIError.failed(ErrorReporter.describe(error))
            }
            let title = (try? await store.movie(id: movieID, api: WatchlistScope.api(of: watchlist.api)))
                .flatMap { $0 }.map { "\(TerminalText.safe($0.value.name)) (\(movieID))" } ?? "movie \(movieID)"
            let done = action == .add ? (note.isEmpty ? "Added \(title) to the watchlist" : "Noted \(title) on the watchlist") : "Removed \(title) from the watchlist"
            let delivered = await delivery(watchlist, offline: options.offline)
            if let signedOut = SignedOut.sentence(in: delivered) {
                throw CLIError.failed("\(signedOut) (the change is kept here and sent then)")
            }
            print("\(done); \(delivered)")
        }
    }

    private static func delivery(_ watchlist: AppWatchlist, offline: Bool) async -> String {
        if case let .thisMachine(reason) = watchlist.home { return "kept on this machine: \(reason)." }
        guard let sync = watchlist.sync else {
            return offline ? "pending: it is sent by the next command that uses the network, or 'marquee sync'." : "pending."
        }
        do {
            let report = try await sync.push(waiting: true)
            try? await sync.pull()
            guard case let .sent(counts, unknown) = report else { return "pending: another process is sending changes." }
            if !unknown.isEmpty { return "not kept: the server has no movie \(unknown.map(String.init).joined(separator: ", "))." }
            if (counts[.superseded] ?? 0) > 0 { return "sent, but a newer change made on another device stands." }
            return "sent to the server."
        } catch {
            if case .noWatchlist = error { return "kept on this machine: the server keeps no watchlist." }
            return "not sent yet (\(WatchlistText.describe(error))): kept on this machine and sent by the next command that uses the network."
        }
    }
}
