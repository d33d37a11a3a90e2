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
