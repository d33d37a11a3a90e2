import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTPCompression
import NIOPosix
import NIOSSL

/// Turns what AsyncHTTPClient and SwiftNIO throw into a ``NetworkError``.
enum TransportErrorMapping {
    static func networkError(for error: any Error, request: APIRequest, bodyLimit: Int) -> NetworkError {
        let (host, port) = request.hostAndPort
        if let error = error as? NetworkError { return error }
        if error is CancellationError || Task.isCancelled { return .cancelled }
        if error is NIOTooManyBytesError { return .bodyTooLarge(limit: bodyLimit) }
        if let error = error as? HTTPClientError {
            return map(error, host: host, port: port, timeout: request.timeout, bodyLimit: bodyLimit)
        }
        if let error = error as? NIOConnectionError {
            let reason =
                if let failure = error.connectionErrors.first {
                    describe(failure.error)
                } else if error.dnsAError != nil || error.dnsAAAAError != nil {
                    "the host name could not be resolved"
                } else {
                    "no address could be reached"
                }
            return .cannotConnect(host: host, port: port, reason: reason)
        }
        if let error = error as? IOError {
            if [ECONNREFUSED, ENETUNREACH, EHOSTUNREACH, EADDRNOTAVAIL].contains(error.errnoCode) {
                return .cannotConnect(host: host, port: port, reason: describe(error))
            }
            return .connectionLost(describe(error))
        }
        if let error = error as? ChannelError {
            switch error {
            case .connectTimeout:
                return .cannotConnect(host: host, port: port, reason: "connecting timed out")
            default:
                return .connectionLost(words(of: error))
            }
        }
        if error is NIOSSLError || error is BoringSSLError {
            return .cannotConnect(host: host, port: port, reason: "the TLS handshake failed; is the server speaking HTTPS on this port, with a certificate this machine trusts?")
        }
        if let error = error as? NIOHTTPDecompression.DecompressionError {
            return error == .limit ? .bodyTooLarge(limit: bodyLimit) : .connectionLost("the compressed body is damaged")
        }
        return .connectionLost(words(of: error))
    }

    private static func map(_ error: HTTPClientError, host: String, port: Int, timeout: Duration, bodyLimit: Int) -> NetworkError {
        switch error {
        case .deadlineExceeded, .readTimeout, .writeTimeout:
            .timedOut(after: timeout)
        case .connectTimeout, .tlsHandshakeTimeout, .getConnectionFromPoolTimeout:
            .cannotConnect(host: host, port: port, reason: "connecting timed out")
        case .cancelled, .requestStreamCancelled:
            .cancelled
        case .remoteConnectionClosed:
            .connectionLost("the server closed the connection before the response was complete")
        case .invalidURL, .emptyHost, .emptyScheme:
            .invalidRoute("the URL cannot be requested")
        case .redirectLimitReached, .redirectCycleDetected:
            .connectionLost("the server redirected too often")
        case .bodyLengthMismatch:
            .connectionLost("the response body is shorter or longer than announced")
        default:
            .connectionLost(words(of: error))
        }
    }

    private static func describe(_ error: any Error) -> String {
        guard let error = error as? IOError else { return words(of: error) }
        switch error.errnoCode {
        case ECONNREFUSED: return "connection refused"
        case ECONNRESET: return "connection reset by the server"
        case ENETUNREACH: return "network unreachable"
        case EHOSTUNREACH: return "host unreachable"
        default: return String(cString: strerror(error.errnoCode)).lowercased()
        }
    }

    /// A library's error for a person: its case named in words (`HTTPClientError.remoteConnectionClosed`
    /// is "remote connection closed"), never its type or its payload.
    static func words(of error: any Error) -> String {
        var name = Substring(String(describing: error))
        if let open = name.firstIndex(of: "(") { name = name[..<open] }
        if let dot = name.lastIndex(of: ".") { name = name[name.index(after: dot)...] }
        let words = String(name.filter { $0.isLetter || $0.isNumber || $0 == " " })
            .replacing(#/([A-Z]+)([A-Z][a-z])/#) { "\($0.1) \($0.2)" }
            .replacing(#/([a-z0-9])([A-Z])/#) { "\($0.1) \($0.2)" }
            .lowercased()
        return words.isEmpty ? "a failure of the connection" : words
    }
}
