import Foundation

/// Where the app keeps its files, by the XDG base directory rules.
enum AppPaths {
    /// `$XDG_CACHE_HOME/marquee/movies.sqlite`, else `~/.cache/marquee/movies.sqlite`.
    static func defaultStoreURL(environment variables: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        folder("XDG_CACHE_HOME", else: ".cache", variables).appendingPathComponent("movies.sqlite")
    }

    /// `$XDG_CONFIG_HOME/marquee/credentials.json`, else `~/.config/marquee/credentials.json`.
    static func credentialsFile(environment variables: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        folder("XDG_CONFIG_HOME", else: ".config", variables).appendingPathComponent("credentials.json")
    }

    /// `$XDG_CONFIG_HOME/marquee/config`, else `~/.config/marquee/config`: the user's settings.
    static func configFile(environment variables: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        folder("XDG_CONFIG_HOME", else: ".config", variables).appendingPathComponent("config")
    }

    private static func folder(_ variable: String, else homeFolder: String, _ variables: [String: String]) -> URL {
        let base = variables[variable].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: variables["HOME"] ?? NSHomeDirectory()).appendingPathComponent(homeFolder)
        return base.appendingPathComponent("marquee")
    }
}
