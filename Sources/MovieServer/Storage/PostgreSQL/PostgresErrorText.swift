import PostgresNIO

/// A readable reason for a PostgreSQL failure. `PSQLError`'s own description is deliberately
/// vague; this takes the server's message or the connection's underlying error, never the
/// query's bound values.
enum PostgresErrorText {
    static func describe(_ error: any Error) -> String {
        guard let error = error as? PSQLError else { return String(describing: error) }
        if let message = error.serverInfo?[.message] {
            let code = error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
            return message + code
        }
        if let underlying = error.underlying { return String(describing: underlying) }
        return "\(error.code)"
    }

    /// Whether the failure is about reaching the server, not about a query.
    static func isConnectionFailure(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError else { return false }
        return [.connectionError, .serverClosedConnection, .clientClosedConnection, .poolClosed, .sslUnsupported, .authMechanismRequiresPassword]
            .contains(error.code) || error.serverInfo?[.sqlState].map { $0.hasPrefix("28") || $0 == "3D000" } == true
    }
}
