import ArgumentParser
import Foundation
import Logging
import MovieStore

/// The options every client command accepts after its name.
struct ClientOptions: ParsableArguments {
    @OptionGroup var api: APIOptions

    @Flag(help: "Print the movies as JSON instead of a table.")
    var json = false

    @Option(help: ArgumentHelp(
        "Where answers come from: \(PolicyOption.allValueStrings.joined(separator: ", ")) (default: networkElseCache; cacheThenNetwork for browse).",
        valueName: "policy"
    ))
    var policy: PolicyOption?

    @Option(name: .customLong("max-age"), help: ArgumentHelp(
        "How old a stored answer may be under cacheElseNetwork (default: the max-age the server gave with it, else 3600).",
        valueName: "seconds"
    ))
    var maximumAge: Int?

    @Flag(help: "Use the stored answers only, never the network (the cacheOnly policy).")
    var offline = false

    @Flag(help: "Print a line for every answer as it arrives, in the original app's words.")
    var trace = false

    @Flag(help: "Log every exchange on standard error (method, URL, status, bytes, duration, attempt, what the store did) and every authorization.")
    var verbose = false

    @Flag(help: "Print every request on standard error as a curl command, with ${MARQUEE_ACCESS_TOKEN}-style placeholders for credentials.")
    var curl = false

    @Option(help: ArgumentHelp("What to log on standard error: trace, debug, info (as --verbose), notice, warning (the default), error.", valueName: "level"))
    var logLevel: Logger.Level?

    /// What the console shows for these options.
    var consoleSettings: ConsoleSettings {
        ConsoleSettings(level: logLevel ?? (verbose ? .info : .warning), showsCurl: curl)
    }

    func validate() throws {
        if let maximumAge, maximumAge < 0 { throw ValidationError("the maximum age must be 0 seconds or more, not \(maximumAge)") }
        if offline, let policy, policy != .cacheOnly {
            throw ValidationError("--offline cannot be combined with --policy \(policy.rawValue)")
        }
    }

    /// The cache policy these options ask for, `networkElseCache` unless they name one.
    var cachePolicy: CachePolicy { cachePolicy(defaultingTo: .networkElseCache) }

    /// The cache policy these options ask for, `policy` unless they name one.
    func cachePolicy(defaultingTo policy: PolicyOption) -> CachePolicy {
        offline ? .cacheOnly : (self.policy ?? policy).cachePolicy(maximumAge: maximumAge.map { .seconds($0) })
    }
}
