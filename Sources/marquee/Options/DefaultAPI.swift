import Foundation

/// Where the API a command talks to was chosen, when `--env` does not name it: `MARQUEE_ENV`,
/// then the `env` line of `$XDG_CONFIG_HOME/marquee/config`, then the embedded server.
struct DefaultAPI: Equatable {
    /// How the choice was made, for `auth status` and messages.
    enum Source: Equatable, CustomStringConvertible {
        case option
        case variable
        case configFile(String)
        case builtIn

        var description: String {
            switch self {
            case .option: "--env"
            case .variable: "MARQUEE_ENV"
            case let .configFile(path): path
            case .builtIn: "the default"
            }
        }
    }

    let text: String?
    let source: Source

    /// The default API of this environment; a config file that cannot be read as one is an error
    /// naming its path and line.
    static func find(
        environment variables: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ConfigFileError) -> DefaultAPI {
        if let value = variables["MARQUEE_ENV"], !value.isEmpty { return DefaultAPI(text: value, source: .variable) }
        let file = AppPaths.configFile(environment: variables)
        guard let contents = try ConfigFile.read(file), let value = contents.env else { return DefaultAPI(text: nil, source: .builtIn) }
        return DefaultAPI(text: value, source: .configFile(file.path))
    }
}
