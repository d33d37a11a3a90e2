import Foundation

extension Endpoint {
    /// The absolute URL of this endpoint under `baseURL`.
    ///
    /// Exactly one `/` separates the base path from the endpoint's segments, whether or not the
    /// base URL ends in `/`. Each segment is percent-encoded, so `a/b` stays one segment.
    public func url(relativeTo baseURL: URL) throws(NetworkError) -> URL {
        if let problem = baseURL.problemAsHTTPAddress {
            throw .invalidRoute("the base URL \(baseURL.absoluteString) \(problem)")
        }
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: true) else {
            throw .invalidRoute("the base URL \(baseURL.absoluteString) cannot be read")
        }
        for segment in pathSegments { try Self.check(segment) }
        var basePath = components.percentEncodedPath
        while basePath.hasSuffix("/") { basePath.removeLast() }
        let encodedSegments = pathSegments.map(Self.percentEncoded)
        components.percentEncodedPath = ([basePath] + encodedSegments).joined(separator: "/")
        if !queryItems.isEmpty {
            components.queryItems = (components.queryItems ?? []) + queryItems
        }
        guard let url = components.url else {
            throw .invalidRoute("cannot form a URL from \(baseURL.absoluteString) and \(pathSegments)")
        }
        return url
    }

    /// Refuses a segment that would not stay one segment of its own: empty, `.` or `..`.
    static func check(_ segment: String) throws(NetworkError) {
        if segment.isEmpty || segment == "." || segment == ".." {
            throw .invalidRoute("the path segment '\(segment)' is not allowed")
        }
    }

    private static let segmentCharacters: CharacterSet = {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/;")
        return allowed
    }()

    /// `segment` percent-encoded as one path segment; letters, digits and `-._~` as they are.
    static func percentEncoded(_ segment: String) -> String {
        let unreserved = segment.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                true
            default:
                false
            }
        }
        return unreserved ? segment : segment.addingPercentEncoding(withAllowedCharacters: segmentCharacters) ?? segment
    }
}

extension URL {
    /// Why this URL cannot be requested (not http or https, no host, a port outside 1 to 65535),
    /// or `nil` when it can.
    public var problemAsHTTPAddress: String? {
        guard let scheme = scheme?.lowercased(), scheme == "http" || scheme == "https" else { return "is not an http or https URL" }
        guard let host, !host.isEmpty else { return "has no host" }
        if let port, !(1...65535).contains(port) { return "names the port \(port), which is not from 1 to 65535" }
        return nil
    }
}
