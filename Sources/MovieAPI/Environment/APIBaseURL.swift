import Foundation

/// The base URL of an API, checked and written one way: an HTTP address as the client can
/// request it (``Foundation/URL/problemAsHTTPAddress``), no user name or password, query or fragment; scheme and host lowercased, the
/// scheme's default port dropped, and the path ending in exactly one `/`.
///
/// Two spellings of one API (`HTTP://Host:80/api`, `http://host/api/`) are one value, so
/// whatever is keyed by it (stored movies, a credential) is found again.
public struct APIBaseURL: Sendable, Hashable, CustomStringConvertible {
    /// Why a text is not a usable base URL. The message never repeats a password.
    public struct Invalid: Error, Sendable, Hashable, CustomStringConvertible {
        public let reason: String
        public var description: String { reason }
    }

    public let url: URL

    public init(_ text: String) throws(Invalid) {
        guard let components = URLComponents(string: text) else {
            throw Invalid(reason: "'\(Self.withoutUserInfo(text))' is not a URL")
        }
        try self.init(components: components, shown: Self.withoutUserInfo(text))
    }

    public init(_ url: URL) throws(Invalid) {
        try self.init(url.absoluteString)
    }

    private init(components: URLComponents, shown: String) throws(Invalid) {
        guard let given = components.url else { throw Invalid(reason: "'\(shown)' is not a URL") }
        if let problem = given.problemAsHTTPAddress { throw Invalid(reason: "'\(shown)' \(problem)") }
        guard let scheme = components.scheme?.lowercased(), let host = components.host?.lowercased() else {
            throw Invalid(reason: "'\(shown)' is not a URL")
        }
        guard components.user == nil, components.password == nil else {
            throw Invalid(reason: "a user name or password in the URL is not supported; the client authenticates with its own credentials")
        }
        guard components.query == nil, components.fragment == nil else {
            throw Invalid(reason: "'\(shown)' has a query or fragment; give the API's base path only")
        }
        let defaultPort = scheme == "https" ? 443 : 80
        let port = components.port.flatMap { $0 == defaultPort ? nil : ":\($0)" } ?? ""
        var path = components.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        guard let url = URL(string: "\(scheme)://\(host)\(port)\(path)/") else {
            throw Invalid(reason: "'\(shown)' is not a URL")
        }
        self.url = url
    }

    public var description: String { url.absoluteString }

    /// `text` with anything between `://` and `@` in its authority removed, for messages.
    static func withoutUserInfo(_ text: String) -> String {
        guard let schemeEnd = text.range(of: "://") else { return text }
        let authorityEnd = text[schemeEnd.upperBound...].firstIndex(where: { "/?#".contains($0) }) ?? text.endIndex
        guard let at = text[schemeEnd.upperBound..<authorityEnd].lastIndex(of: "@") else { return text }
        return String(text[..<schemeEnd.upperBound]) + "…@" + text[text.index(after: at)...]
    }
}
