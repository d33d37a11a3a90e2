import ArgumentParser

/// `marquee catalog`: the movies a server database holds.
struct CatalogCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "Load movies into the database of 'marquee serve --database'.",
        subcommands: [CatalogImportCommand.self]
    )
}
