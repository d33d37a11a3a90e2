import ArgumentParser

/// `marquee`: the root command, which only groups the others.
struct MarqueeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "marquee",
        abstract: "Top grossing and top rated movies, from the Marquee movie API.",
        discussion: """
            Client commands talk to the embedded API server by default, so they need nothing else \
            running. Use --env to choose another server.
            """,
        version: MarqueeVersion.text,
        subcommands: [TopGrossingCommand.self, LoginCommand.self, LogoutCommand.self, BrowseCommand.self, TopRatedCommand.self, MovieCommand.self, SearchCommand.self, MoviesCommand.self, WatchCommand.self, WatchlistCommand.self, SyncCommand.self, ServeCommand.self, CatalogCommand.self, AccountsCommand.self, AuthCommand.self, CacheCommand.self, GenerateCatalogCommand.self]
    )
}
