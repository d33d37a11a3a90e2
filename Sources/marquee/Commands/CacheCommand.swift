import ArgumentParser
import Foundation
import MovieStore

/// `marquee cache`: the local movie store.
struct CacheCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Show or remove the local movie store.",
        subcommands: [CacheStatsCommand.self, CacheClearCommand.self]
    )
}

/// The `--store` option of the cache commands.
struct StoreOption: ParsableArguments {
    @Option(help: ArgumentHelp("The movie store file (default: $XDG_CACHE_HOME/marquee/movies.sqlite).", valueName: "path"))
    var store: String?

    var url: URL { store.map { URL(fileURLWithPath: $0) } ?? MovieStore.defaultURL() }
}

/// `marquee cache stats`: what the store holds.
struct CacheStatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stats", abstract: "Show what the local movie store holds.")

    @OptionGroup var options: StoreOption

    func run() async throws {
        guard FileManager.default.fileExists(atPath: options.url.path) else {
            print("No movie store at \(options.url.path) yet.")
            return
        }
        let statistics = try await MovieStore(url: options.url).statistics()
        var lines = [
            "Store     \(statistics.path)",
            "Size      \(NumberText.grouped(Int(statistics.sizeInBytes))) bytes",
            "Movies    \(statistics.movies)",
            "Actors    \(statistics.actors)",
        ]
        if statistics.lists.isEmpty {
            lines.append("Lists     none")
        }
        for (index, list) in statistics.lists.enumerated() {
            let age = Provenance.age(Date().timeIntervalSince(list.fetchedAt))
            lines.append((index == 0 ? "Lists     " : "          ") + "\(list.key): \(list.count) movies, fetched \(age)")
        }
        print(lines.joined(separator: "\n"))
    }
}

/// `marquee cache clear`: delete the store, even a damaged one.
struct CacheClearCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear",
        abstract: "Delete the local movie store (also when it is damaged); the next run starts empty."
    )

    @OptionGroup var options: StoreOption

    func run() async throws {
        let removed = try MovieStore.removeFiles(at: options.url)
        print(removed ? "Removed the movie store \(options.url.path)." : "No movie store at \(options.url.path); nothing to remove.")
    }
}
