import ArgumentParser
import Foundation
import Logging
import MovieStore

/// The options every client command accepts after its name (`browse` too): where to ask
/// (``ConnectionOptions``) and how the store and the network share the work (`--policy`,
/// `--max-age`).
struct ClientOptions: ParsableArguments {
    @OptionGroup var connection: ConnectionOptions

    @Option(help: ArgumentHelp(
        "Where answers come from: \(PolicyOption.allValueStrings.joined(separator: ", ")) (default: networkElseCache; cacheThenNetwork for browse).",
        valueName: "policy"
    ))
    var policy: PolicyOption?

    @Option(name: .customLong("max-age"), help: ArgumentHelp(
        "With --policy cacheElseNetwork: how old a stored answer may be (default: the max-age the server gave with it, else 3600).",
        valueName: "seconds"
    ))
    var maximumAge: Int?

    init() {}

    /// The options of a command that takes no policy: `connection`'s, and none of the cache's.
    init(connection: ConnectionOptions) {
        self.connection = connection
        policy = nil
        maximumAge = nil
    }

    var api: APIOptions { connection.api }
    var accountOption: AccountOption { connection.accountOption }
    var offline: Bool {
        get { connection.offline }
        set { connection.offline = newValue }
    }
    var timeout: Int? { connection.timeout }
    var verbose: Bool { connection.verbose }
    var curl: Bool { connection.curl }
    var logLevel: ConsoleLevel? { connection.logLevel }
    var consoleSettings: ConsoleSettings { connection.consoleSettings }

    func validate() throws {
        if let maximumAge, maximumAge < 0 { throw ValidationError("the maximum age must be 0 seconds or more, not \(maximumAge)") }
        if maximumAge != nil, policy != .cacheElseNetwork {
            throw ValidationError("--max-age is for --policy cacheElseNetwork; the \(offline ? "cacheOnly" : (policy ?? .networkElseCache).rawValue) policy does not use it")
        }
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

/// Where a client command asks and what it logs: the API, the account, `--offline`, the timeout
/// and the console's options; every client command takes them.
struct ConnectionOptions: ParsableArguments {
    @OptionGroup var api: APIOptions
    @OptionGroup var accountOption: AccountOption

    @Flag(help: "Use the stored answers only, never the network (the cacheOnly policy).")
    var offline = false

    @Option(parsing: .unconditional, help: ArgumentHelp("How long one attempt at a request may take (default: 30; 2 for the stub).", valueName: "seconds"))
    var timeout: Int?

    @Flag(name: [.customShort("v"), .long], help: "Log every exchange on standard error (method, URL, status, bytes, duration, attempt, what the store did) and every authorization.")
    var verbose = false

    @Flag(help: "Print every request on standard error as a curl command, with ${MARQUEE_ACCESS_TOKEN}-style placeholders for credentials.")
    var curl = false

    @Option(help: ArgumentHelp("What to log on standard error: info (as --verbose), notice, warning (the default), error.", valueName: "level"))
    var logLevel: ConsoleLevel?

    /// What the console shows for these options.
    var consoleSettings: ConsoleSettings {
        ConsoleSettings(level: logLevel?.level ?? (verbose ? .info : .warning), showsCurl: curl)
    }

    func validate() throws {
        if let timeout, !(1...3600).contains(timeout) { throw ValidationError("the timeout must be from 1 to 3600 seconds, not \(timeout)") }
    }
}

/// The options of the watchlist's commands (`watch`, `watchlist`, `sync`), which ask no cached
/// question: ``ConnectionOptions``, and `--policy` and `--max-age` hidden from their help, read
/// only to be refused in words that say what the command does instead.
struct WatchlistClientOptions: ParsableArguments {
    @OptionGroup var connection: ConnectionOptions

    @Option(help: .private)
    var policy: PolicyOption?

    @Option(name: .customLong("max-age"), help: .private)
    var maximumAge: Int?

    /// The client options these stand for.
    var client: ClientOptions { ClientOptions(connection: connection) }

    /// Refuses `--policy` (and `--max-age`) so that a policy given is never silently ignored;
    /// `why` says what `command` does instead.
    func refusePolicy(for command: String, _ why: String) throws {
        guard let named = policy.map({ "--policy \($0.rawValue)" }) ?? (maximumAge != nil ? "--max-age" : nil) else { return }
        throw ValidationError("'\(command)' takes no \(named): \(why)")
    }
}

/// The console levels `--log-level` offers: each shows something the next does not.
enum ConsoleLevel: String, ExpressibleByArgument, CaseIterable {
    case info, notice, warning, error

    var level: Logger.Level {
        switch self {
        case .info: .info
        case .notice: .notice
        case .warning: .warning
        case .error: .error
        }
    }
}
