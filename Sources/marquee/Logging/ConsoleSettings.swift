import Logging

/// What the console shows, as the command line asked: the lowest level printed, and whether
/// requests are printed as `curl` commands.
struct ConsoleSettings: Sendable {
    var level: Logger.Level = .warning
    var showsCurl = false
}
