import Logging

/// What the console shows, as the command line asked: the lowest level printed, and whether
/// requests are printed as `curl` commands.
struct ConsoleSettings: Sendable {
    var level: Logger.Level = .warning
    var showsCurl = false
}

/// A command that takes the client options, and so says what the console shows.
protocol ParsableCommandWithClient {
    var client: ClientOptions { get }
}

extension TopGrossingCommand: ParsableCommandWithClient {}
extension TopRatedCommand: ParsableCommandWithClient {}
extension MovieCommand: ParsableCommandWithClient {}
extension BrowseCommand: ParsableCommandWithClient {}
extension SearchCommand: ParsableCommandWithClient {}
extension MoviesCommand: ParsableCommandWithClient {}
