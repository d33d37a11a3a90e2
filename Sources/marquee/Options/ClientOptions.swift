import ArgumentParser
import Foundation
import Logging
import MovieStore

/// The options every client command accepts after its name (`browse` too).
struct ClientOptions: ParsableArguments {
    @OptionGroup var api: APIOptions
    @OptionGroup var accountOption: AccountOption

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
        if let maximumAge, maximumAge < 0 { throw ValidationError("the maximum age must be 0 seconds or more, not \(maximumAge)") }
        if maximumAge != nil, policy != .cacheElseNetwork {
            throw ValidationError("--max-age is for --policy cacheElseNetwork; the \(offline ? "cacheOnly" : (policy ?? .networkElseCache).rawValue) policy does not use it")
        }
        if let timeout, !(1...3600).contains(timeout) { throw ValidationError("the timeout must be from 1 to 3600 seconds, not \(timeout)") }
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

extension ClientOptions {
    /// Refuses `--policy` (and `--max-age`) for a command that asks no cached question, so that a
    /// policy given is never silently ignored; `why` says what the command does instead.
    func refusePolicy(for command: String, _ why: String) throws {
        guard let named = policy.map({ "--policy \($0.rawValue)" }) ?? (maximumAge != nil ? "--max-age" : nil) else { return }
        throw ValidationError("'\(command)' takes no \(named): \(why)")
    }
}
