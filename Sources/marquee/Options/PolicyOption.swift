import ArgumentParser
import MovieStore

/// The `--policy` values, named as the policies are.
enum PolicyOption: String, ExpressibleByArgument, CaseIterable {
    case cacheThenNetwork
    case cacheElseNetwork
    case networkElseCache
    case networkOnly
    case cacheOnly

    func cachePolicy(maximumAge: Duration?) -> CachePolicy {
        switch self {
        case .cacheThenNetwork: .cacheThenNetwork
        case .cacheElseNetwork: .cacheElseNetwork(maxAge: maximumAge)
        case .networkElseCache: .networkElseCache
        case .networkOnly: .networkOnly
        case .cacheOnly: .cacheOnly
        }
    }
}
