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
        groupedSubcommands: [
            CommandGroup(name: "Movies", subcommands: [TopGrossingCommand.self, TopRatedCommand.self, MovieCommand.self, SearchCommand.self, MoviesCommand.self, BrowseCommand.self]),
            CommandGroup(name: "Watchlist", subcommands: [WatchCommand.self, WatchlistCommand.self, SyncCommand.self]),
            CommandGroup(name: "Shelf", subcommands: [RateCommand.self, RatingsCommand.self, WatchedCommand.self, DiaryCommand.self, ListsCommand.self, ListCommand.self]),
            CommandGroup(name: "Signing in", subcommands: [LoginCommand.self, LogoutCommand.self, AuthCommand.self]),
            CommandGroup(name: "Local store", subcommands: [CacheCommand.self]),
            CommandGroup(name: "Server", subcommands: [ServeCommand.self, AccountsCommand.self, CatalogCommand.self, GenerateCatalogCommand.self]),
        ]
    )
}
