import Foundation

extension Endpoint {
    /// The absolute URL of this endpoint under `baseURL`.
    ///
    /// Exactly one `/` separates the base path from the endpoint's segments, whether or not the
    /// base URL ends in `/`. Each segment is percent-encoded, so `a/b` stays one segment.
    public func url(relativeTo baseURL: URL) throws(NetworkError) -> URL {
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: true),
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = components.host, !host.isEmpty
        else {
            throw .invalidRoute("the base URL \(baseURL.absoluteString) is not an http or https URL with a host")
        }
        if let port = components.port, !Self.validPorts.contains(port) {
            throw .invalidRoute("the port \(port) of the base URL is not from 1 to 65535")
        }
        for segment in pathSegments where segment.isEmpty || segment == "." || segment == ".." {
            throw .invalidRoute("the path segment '\(segment)' is not allowed")
        }
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

    /// The TCP ports a URL may name.
    static let validPorts = 1...65535

    private static let segmentCharacters: CharacterSet = {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/;")
        return allowed
    }()

    private static func percentEncoded(_ segment: String) -> String {
        segment.addingPercentEncoding(withAllowedCharacters: segmentCharacters) ?? segment
    }
}
