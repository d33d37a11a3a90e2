import ArgumentParser
import Foundation
import MovieContract
import Movies

/// `marquee watch add ID [--note TEXT | --clear-note]` and `marquee watch remove ID`: change the watchlist.
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

/// `marquee watch add ID [--note TEXT | --clear-note]`.
struct WatchAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a movie to the watchlist, or change its note.",
        discussion: "Without --note the movie keeps the note it has; --clear-note removes it. A movie the server does not have is refused."
    )

    @Argument(help: "The movie's id (shown by every list).", transform: MovieIDArgument.parse)
    var id: Int

    @Option(help: ArgumentHelp(
        "A note kept with the movie, replacing the one it has (at most \(WatchlistNote.maximumLength) characters, no control characters).",
        valueName: "text"
    ))
    var note: String?

    @Flag(help: "Remove the movie's note.")
    var clearNote = false

    @Flag(help: WatchChangeJSON.help)
    var json = false

    @OptionGroup var options: WatchlistClientOptions
    var client: ClientOptions { options.client }

    func validate() throws {
        if clearNote, note != nil { throw ValidationError("--note and --clear-note cannot be used together") }
        if note == "" { throw ValidationError("an empty --note changes nothing: to remove the movie's note, use --clear-note") }
        if let note, let problem = WatchlistNote.problem(with: note) { throw ValidationError(problem) }
        try options.refusePolicy(for: "watch add", WatchAddCommand.sendingRule)
    }

    /// What `watch` does instead of a cache policy.
    static let sendingRule = "the change is sent when the server answers and kept here otherwise (--offline keeps it here without trying)"

    func run() async throws {
        try await WatchChange.add(movieID: id, note: clearNote ? "" : note, json: json, client)
    }
}

/// `marquee watch remove ID`.
struct WatchRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove a movie from the watchlist.",
        discussion: "A movie that is not on the list is left alone, and the command says so."
    )

    @Argument(help: "The movie's id.", transform: MovieIDArgument.parse)
    var id: Int

    @Flag(help: WatchChangeJSON.help)
    var json = false

    @OptionGroup var options: WatchlistClientOptions
    var client: ClientOptions { options.client }

    func validate() throws {
        try options.refusePolicy(for: "watch remove", WatchAddCommand.sendingRule)
    }

    func run() async throws {
        try await WatchChange.remove(movieID: id, json: json, client)
    }
}

extension WatchAddCommand: ParsableCommandWithClient {}
extension WatchRemoveCommand: ParsableCommandWithClient {}
