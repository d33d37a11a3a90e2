import ArgumentParser
import Foundation
import MovieAPI

/// `--env`: which API. Without it, `MARQUEE_ENV`, then the config file's `env`, then the embedded
/// server (``DefaultAPI``).
struct EnvironmentOption: ParsableArguments {
    @Option(
        name: .customLong("env"),
        help: ArgumentHelp(
            "Which API: embedded, production, a base URL such as http://127.0.0.1:8080/api/, or \(APISelection.stubNames.joined(separator: "|")) (default: $MARQUEE_ENV, else 'env' in $XDG_CONFIG_HOME/marquee/config, else embedded).",
            valueName: "environment"
        )
    )
    var environment: String?

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

    /// The API in force, and where it was chosen.
    func resolved(environment variables: [String: String] = ProcessInfo.processInfo.environment) throws -> (APISelection, DefaultAPI.Source) {
        if let given = try selectionIfGiven() { return (given, .option) }
        let fallback: DefaultAPI
        do {
            fallback = try DefaultAPI.find(environment: variables)
        } catch {
            throw CLIError.failed(error.description)
        }
        guard let text = fallback.text else { return (.embedded, .builtIn) }
        do {
            return (try APISelection(parsing: text), fallback.source)
        } catch {
            throw CLIError.failed("invalid \(fallback.source): \(error)")
        }
    }

    /// The API in force: `--env`, else the default of this environment.
    var selection: APISelection {
        get throws { try resolved().0 }
    }
}
