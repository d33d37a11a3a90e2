/// The paths the API serves and the methods each allows, to answer a known path asked with
/// another method with 405 and an `Allow` header instead of 404.
enum RouteTable {
    private static let routes: [(pattern: [String], methods: [String])] = [
        (["api", "auth"], ["GET"]),
        (["api", "auth", "token"], ["POST"]),
        (["api", "openapi.yaml"], ["GET"]),
        (["api", "movies"], ["GET"]),
        (["api", "movies", "*"], ["GET"]),
        (["api", "movies", "topGrossing", "*"], ["GET"]),
        (["api", "movies", "topRated", "*"], ["GET"]),
    ]

    /// The methods `path` allows, or `nil` when the API has no such path.
    static func allowedMethods(for path: String) -> [String]? {
        let segments = path.split(separator: "/").map(String.init)
        return routes.first { route in
            route.pattern.count == segments.count && zip(route.pattern, segments).allSatisfy { $0 == "*" || $0 == $1 }
        }?.methods
    }
}
