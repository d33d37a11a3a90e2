import ArgumentParser
import Foundation
import MovieAPI

/// `--env` and `--store`: which API, and which movie store. Shared by the client and `cache` commands.
struct APIOptions: ParsableArguments {
    @OptionGroup var api: EnvironmentOption

    @Option(help: ArgumentHelp("The movie store file (default: $XDG_CACHE_HOME/marquee/movies.sqlite).", valueName: "path"))
    var store: String?

    /// The API `--env` names, or `nil` when it was not given.
    func selectionIfGiven() throws -> APISelection? { try api.selectionIfGiven() }

    /// The API in force: `--env`, else the default of this environment.
    var selection: APISelection {
        get throws { try api.selection }
    }

    /// The store file these options name.
    var storeURL: URL {
        store.map { URL(fileURLWithPath: $0) } ?? AppPaths.defaultStoreURL()
    }
}
