import Foundation
import NIOHTTP1

/// Everything that can go wrong between sending a request and holding a decoded value.
///
/// Each case says what happened in words a user can act on (``description``). None of them
/// carries a credential: headers are never copied into an error.
public enum NetworkError: Error, Sendable, Hashable {
    /// No connection could be opened to the server.
    case cannotConnect(host: String, port: Int, reason: String)
    /// The server did not answer within the allowed time.
    case timedOut(after: Duration)
    /// The connection broke while the request or response was under way.
    case connectionLost(String)
    /// The server answered with a status the route does not accept.
    case status(code: Int, excerpt: String)
    /// The body could not be read as the expected type; `path` points at the failing value (`$[3].releaseDate`).
    case cannotDecode(path: String, reason: String)
    /// The response body was larger than the client accepts.
    case bodyTooLarge(limit: Int)
    /// The calling task was cancelled.
    case cancelled
    /// The request could not be built: a bad base URL or path segment.
    case invalidRoute(String)
    /// The server refused the credential and a new one could not be obtained.
    case authenticationFailed(String)
    /// The server answered with a redirect the client does not follow: too many, to an address
    /// that is not valid, to another origin with a request body, or for an endpoint that forbids them.
    case redirectRefused(String)
}

extension NetworkError: CustomStringConvertible, LocalizedError {
    public var description: String {
        switch self {
        case let .cannotConnect(host, port, reason):
            "cannot connect to \(host):\(port) (\(reason)); is the server running and the address right?"
        case let .timedOut(after):
            "the server did not answer within \(Self.seconds(after))"
        case let .connectionLost(reason):
            "the connection to the server was lost (\(reason))"
        case let .status(code, excerpt):
            excerpt.isEmpty ? "the server answered \(Self.statusLine(code))" : "the server answered \(Self.statusLine(code)): \(excerpt)"
        case let .cannotDecode(path, reason):
            "cannot read the server's answer at \(path): \(reason)"
        case let .bodyTooLarge(limit):
            "the server's answer is larger than the \(limit) bytes the client accepts"
        case .cancelled:
            "the request was cancelled"
        case let .invalidRoute(reason):
            "invalid request: \(reason)"
        case let .authenticationFailed(reason):
            "authentication failed: \(reason)"
        case let .redirectRefused(reason):
            "the server redirected the request and the client did not follow: \(reason)"
        }
    }

    public var errorDescription: String? { description }

    /// Whether the server could not be reached, or could not give a usable answer now (no
    /// connection, a time-out, a lost connection, a 5xx, a 408 or a 429, a body that cannot be read
    /// or is too large, a redirect not followed): a stored answer may stand in. A 4xx status, a
    /// refused credential or a request that cannot be built is the answer to this request, which a
    /// stored answer must not hide.
    public var meansServerUnavailable: Bool {
        switch self {
        case .cannotConnect, .timedOut, .connectionLost, .cannotDecode, .bodyTooLarge, .redirectRefused: true
        case let .status(code, _): code >= 500 || code == 408 || code == 429
        case .cancelled, .invalidRoute, .authenticationFailed: false
        }
    }

    /// The error for an answer with a status that is not accepted: its code, and an excerpt of
    /// its body (the `error_description` of an OAuth error, a JSON error's message, or the text).
    public static func status(of response: APIResponse) -> NetworkError {
        .status(code: response.status.code, excerpt: BodyExcerpt.make(from: response.body))
    }

    /// The HTTP status code, when the server answered with one.
    public var statusCode: Int? {
        if case let .status(code, _) = self { code } else { nil }
    }

    private static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let milliseconds = Double(seconds) * 1000 + Double(attoseconds) / 1e15
        return milliseconds >= 1000 && milliseconds.truncatingRemainder(dividingBy: 1000) == 0
            ? "\(Int(milliseconds / 1000)) s"
            : "\(Int(milliseconds.rounded())) ms"
    }

    /// `304 Not Modified`, or the code alone when HTTP names no reason for it.
    public static func statusLine(_ code: Int) -> String {
        let phrase = HTTPResponseStatus(statusCode: code).reasonPhrase
        return phrase.isEmpty ? "\(code)" : "\(code) \(phrase)"
    }
}

enum BodyExcerpt {
    static let maximumLength = 200

    /// A one-line excerpt of a response body for an error message: the `message` or
    /// `error_description` of a JSON error body when there is one, else the text with its
    /// whitespace folded, cut at ``maximumLength`` characters.
    static func make(from body: Data) -> String {
        let prefix = body.prefix(16 * 1024)
        if let object = try? JSONSerialization.jsonObject(with: prefix) as? [String: Any] {
            for key in ["error_description", "message", "reason", "error"] {
                if let text = object[key] as? String { return shortened(text) }
            }
        }
        let text = String(decoding: prefix, as: UTF8.self)
        if text.range(of: "<html", options: .caseInsensitive) != nil { return "" }
        return shortened(text)
    }

    private static func shortened(_ text: String) -> String {
        let folded = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return folded.count > maximumLength ? String(folded.prefix(maximumLength)) + "…" : folded
    }
}
