import Foundation
import MovieServer
import MovieServerDatabases

/// Where the server commands find their database when `--database` is not given.
enum DatabaseArgument {
    /// `MARQUEE_DATABASE_URL`, when it is set and not empty.
    static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        environment[DatabaseLocation.environmentVariable].flatMap { $0.isEmpty ? nil : $0 }
    }
}
