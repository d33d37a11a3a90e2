import Hummingbird

/// The paths the API serves and the methods each allows, read from the router the routes were
/// registered on, so that a known path asked with another method is a 405 with an `Allow`
/// header instead of a 404. Every `GET` path answers `HEAD` too.
struct RouteTable: Sendable {
    private let routes: [(path: RouterPath, methods: [String])]

    init<Context>(_ router: Router<Context>) {
        routes = Dictionary(grouping: router.routes, by: \.path.description).values.compactMap { descriptions in
            var methods = Set(descriptions.map(\.method.rawValue))
            if methods.contains("GET") { methods.insert("HEAD") }
            return descriptions.first.map { ($0.path, methods.sorted()) }
        }
    }

    /// The methods `path` allows, or `nil` when the API has no such path. Of the routes that
    /// match, the one with the most literal segments is the path (the router matches
    /// `watchlist/changes` before `watchlist/:id`).
    func allowedMethods(for path: String) -> [String]? {
        let segments = path.split(separator: "/")
        return routes.filter { route in
            route.path.components.count == segments.count && zip(route.path.components, segments).allSatisfy { $0 ~= $1 }
        }.max { Self.literals(in: $0.path) < Self.literals(in: $1.path) }?.methods
    }

    private static func literals(in path: RouterPath) -> Int {
        path.components.filter { $0 == .path(Substring($0.description)) }.count
    }
}
