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

    /// The methods `path` allows, or `nil` when the API has no such path.
    func allowedMethods(for path: String) -> [String]? {
        let segments = path.split(separator: "/")
        return routes.first { route in
            route.path.components.count == segments.count && zip(route.path.components, segments).allSatisfy { $0 ~= $1 }
        }?.methods
    }
}
