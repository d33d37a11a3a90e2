import Logging

extension Logger {
    /// A logger that drops everything: the default of the library's types, which log only when
    /// the app hands them a logger of its own (as AsyncHTTPClient does).
    public static let disabled = Logger(label: "Networking.disabled", factory: { _ in SwiftLogNoOpLogHandler() })
}
