import Foundation
import MovieServer
import NIOCore
import NIOPosix
import PostgresNIO

/// A readable reason for a PostgreSQL failure. `PSQLError`'s own description is deliberately
/// vague; this takes the server's message or the connection's underlying error, never the
/// query's bound values.
package enum PostgresErrorText {
    /// The error inside a failed transaction: what its closure, `BEGIN` or `COMMIT` threw, not
    /// postgres-nio's wrapper (whose description is a dump of source locations).
    static func unwrapped(_ error: any Error) -> any Error {
        guard let failure = error as? PostgresTransactionError else { return error }
        return failure.closureError ?? failure.beginError ?? failure.commitError ?? failure.rollbackError ?? error
    }

    static func describe(_ error: any Error) -> String {
        let error = unwrapped(error)
        if let error = error as? StorageError { return error.description }
        guard let error = error as? PSQLError else { return String(describing: error) }
        if let message = error.serverInfo?[.message] {
            let code = error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
            return message + code
        }
        if let underlying = error.underlying { return connectionFailure(underlying) }
        return words(for: error.code)
    }

    /// What a failure without the server's own message means, for a person; never the code's name.
    package static func words(for code: PSQLError.Code) -> String {
        switch code {
        case .serverClosedConnection: "the server closed the connection"
        case .clientClosedConnection: "the connection was closed before the answer came"
        case .connectionError: "the connection failed"
        case .uncleanShutdown: "the connection ended without a proper goodbye"
        case .poolClosed: "the server is shutting down its connections"
        case .queryCancelled: "the query was cancelled"
        case .sslUnsupported, .failedToAddSSLHandler, .receivedUnencryptedDataAfterSSLRequest: "the server does not speak TLS as asked"
        case .unsupportedAuthMechanism, .authMechanismRequiresPassword, .saslError: "the sign-in to the server failed (check the user and password)"
        case .tooManyParameters: "the query had more values than PostgreSQL takes at once"
        default: "the server's answer could not be read"
        }
    }

    /// Whether the failure is about reaching the server, not about a query.
    static func isConnectionFailure(_ error: any Error) -> Bool {
        guard let error = unwrapped(error) as? PSQLError else { return false }
        return [.connectionError, .serverClosedConnection, .clientClosedConnection, .poolClosed, .sslUnsupported, .authMechanismRequiresPassword]
            .contains(error.code) || error.serverInfo?[.sqlState].map { $0.hasPrefix("28") || $0 == "3D000" || isShutdown($0) } == true
    }

    /// Whether the failure ended a connection that was working: the server closed it, or is
    /// shutting down (SQLSTATE 57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now).
    static func isConnectionLoss(_ error: any Error) -> Bool {
        guard let error = unwrapped(error) as? PSQLError else { return false }
        return [.serverClosedConnection, .clientClosedConnection, .connectionError, .poolClosed].contains(error.code)
            || error.serverInfo?[.sqlState].map(isShutdown) == true
    }

    /// Whether the server refused the connection because it is starting up or recovering
    /// (SQLSTATE 57P03, "the database system is starting up"): it will take one soon.
    static func isStartingUp(_ error: any Error) -> Bool {
        (unwrapped(error) as? PSQLError)?.serverInfo?[.sqlState] == "57P03"
    }

    private static func isShutdown(_ sqlState: String) -> Bool {
        ["57P01", "57P02", "57P03"].contains(sqlState)
    }

    /// "connection refused", "no such host": what NIO's connection error says, in a person's words.
    static func connectionFailure(_ error: any Error) -> String {
        if let error = error as? NIOConnectionError {
            if let first = error.connectionErrors.first { return connectionFailure(first.error) }
            return error.dnsAError != nil || error.dnsAAAAError != nil ? "the host name could not be resolved" : "no address to connect to"
        }
        if let error = error as? IOError { return String(cString: strerror(error.errnoCode)).lowercased() }
        return String(describing: error)
    }
}
