import HTTPTypes

/// A request pattern and the answer to it, for a ``StubTransport``.
public struct StubRule: Sendable {
    public let matches: @Sendable (APIRequest) -> Bool
    public let response: StubResponse

    public init(matching matches: @escaping @Sendable (APIRequest) -> Bool, response: StubResponse) {
        self.matches = matches
        self.response = response
    }

    /// Requests with this method whose URL path ends with `pattern`'s segments, where a segment
    /// `*` matches any one segment: `GET movies/*` matches `/api/movies/6`.
    public static func path(_ method: HTTPRequest.Method, _ pattern: String, _ response: StubResponse) -> StubRule {
        let expected = pattern.split(separator: "/").map(String.init)
        return StubRule(matching: { request in
            guard request.method == method else { return false }
            let actual = request.url.pathComponents.filter { $0 != "/" }
            guard actual.count >= expected.count else { return false }
            return zip(actual.suffix(expected.count), expected).allSatisfy { $1 == "*" || $0 == $1 }
        }, response: response)
    }

    /// Requests for this route (its method and path), wherever the API is mounted.
    public static func route(_ route: some Route, _ response: StubResponse) -> StubRule {
        let endpoint = route.endpoint
        return StubRule(matching: { request in
            let actual = request.url.pathComponents.filter { $0 != "/" }
            return request.method == endpoint.method && actual.suffix(endpoint.pathSegments.count) == ArraySlice(endpoint.pathSegments)
        }, response: response)
    }

    /// Every request.
    public static func any(_ response: StubResponse) -> StubRule {
        StubRule(matching: { _ in true }, response: response)
    }
}
