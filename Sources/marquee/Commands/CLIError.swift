/// Failures of the app itself, as opposed to those of the libraries it drives.
enum CLIError: Error, CustomStringConvertible {
    case cannotServe(host: String, port: Int, reason: String)
    case cannotStartEmbeddedServer(reason: String)
    case cannotWriteOutput(reason: String)
    case noDatabase
    /// A library's failure the app has already put into one line, with its fix.
    case failed(String)

    var description: String {
        switch self {
        case let .cannotServe(host, port, reason):
            "cannot serve on \(host):\(port): \(reason)"
        case let .cannotStartEmbeddedServer(reason):
            "cannot start the embedded API server: \(reason)"
        case let .cannotWriteOutput(reason):
            "cannot write the output: \(reason)"
        case .noDatabase:
            "no database is named: give --database URL, or set MARQUEE_DATABASE_URL"
        case let .failed(line):
            line
        }
    }
}
