import ArgumentParser
import Foundation
import MovieBrowser
import MovieStore
import Networking
import TextFormatting

/// `marquee browse`: the original app's screen in the terminal — two segments (top grossing and
/// top rated) over a table of movies, the stored list at once and the network's when it comes.
struct BrowseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "browse",
        abstract: "Browse the top movies of a year in a full-screen terminal screen (press ? for the keys).",
        discussion: "Needs a terminal. The other commands are the scriptable interface."
    )

    @OptionGroup var year: YearOption
    @OptionGroup var client: ClientOptions

    func validate() throws {
        if client.verbose || client.curl || client.logLevel != nil, isatty(STDERR_FILENO) == 1 {
            throw ValidationError("the request log goes to standard error, which is this screen: redirect it, as in 2>requests.log")
        }
    }

    func run() async throws {
        try Terminal.requireTerminal()
        let policy = client.cachePolicy(defaultingTo: .cacheThenNetwork)
        let apiName = try client.api.selection.identity.description
        let ending = try await CompositionRoot.withMovieService(client) { service, watchlist in
            try await browse(service, watchlist: watchlist, policy: policy, apiName: apiName)
        }
        switch ending {
        case .quit: return
        case let .signal(number): throw ExitCode(128 + number)
        case .hangUp: throw ExitCode(1)
        }
    }

    /// Runs the screen over `service`, whatever implementation the composition root chose.
    private func browse(_ service: some OfflineMovieService<NetworkError>, watchlist: any BrowserWatchlist, policy: CachePolicy, apiName: String) async throws -> BrowserEnding {
        let terminal = try Terminal.open()
        defer { terminal.restore() }
        let color = ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true
        let session = BrowserSession(
            service: service, policy: policy, describe: { ErrorReporter.describe($0) }, watchlist: watchlist, describeError: { ErrorReporter.describe($0) }
        )
        func layout() -> BrowserLayout {
            let size = terminal.size
            return BrowserLayout(width: size.width, height: size.height, color: color)
        }
        var initial = BrowserState(apiName: apiName, year: year.year)
        initial.storeProblem = watchlist.storeProblem.map(TerminalText.safe)
        return await session.run(
            initial,
            inputs: Terminal.inputs(),
            visibleRows: { [initial] in layout().visibleRows(for: initial) },
            draw: { state in terminal.draw(layout().lines(for: state, now: Date())) }
        )
    }
}
