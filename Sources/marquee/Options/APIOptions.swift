import ArgumentParser
import Foundation
import MovieAPI

/// `--env` and `--store`: which API, and which movie store. Shared by the client, `auth` and
/// `cache` commands.
struct APIOptions: ParsableArguments {
    @Option(
        name: .customLong("env"),
        help: ArgumentHelp(
            "Which API: embedded, production, a base URL such as http://127.0.0.1:8080/api/, or \(APISelection.stubNames.joined(separator: "|")).",
            valueName: "environment"
        )
    )
    var environment: String?

    @Option(help: ArgumentHelp("The movie store file (default: $XDG_CACHE_HOME/marquee/movies.sqlite).", valueName: "path"))
    var store: String?

    func validate() throws {
        _ = try selectionIfGiven()
    }

    /// The API `--env` names, or `nil` when it was not given.
    func selectionIfGiven() throws -> APISelection? {
        guard let environment else { return nil }
        do {
            return try APISelection(parsing: environment)
        } catch {
            throw ValidationError("invalid --env: \(error)")
        }
    }

    /// The API `--env` names; the embedded API when it was not given.
    var selection: APISelection {
        get throws { try selectionIfGiven() ?? .embedded }
    }

    /// The store file these options name.
    var storeURL: URL {
        store.map { URL(fileURLWithPath: $0) } ?? AppPaths.defaultStoreURL()
    }
}
