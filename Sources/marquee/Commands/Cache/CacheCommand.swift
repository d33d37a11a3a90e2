import ArgumentParser

/// `marquee cache`: the local movie store.
struct CacheCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Show or remove what the local movie store holds.",
        subcommands: [CacheStatsCommand.self, CacheClearCommand.self]
    )
}
