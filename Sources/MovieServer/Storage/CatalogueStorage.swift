import MovieContract
/// The catalogue a server serves: one movie, a year's top lists, and a version that changes with it.
public protocol CatalogueStorage: Sendable {
    /// The catalog, when this storage's can never change while the server runs (it is kept in
    /// memory): its answers can be prepared at start and never rechecked. `nil` for a database.
    var fixedCatalog: Catalog? { get }

    func movie(id: Int) async throws(StorageError) -> CatalogMovie?

    /// The best `limit` movies of `year` in `order`, ties to the higher id.
    func topMovies(_ order: TopListOrder, year: Int, limit: Int) async throws(StorageError) -> [CatalogMovie]

    /// A number that changes whenever the catalog does, so that encoded lists can be kept until then.
    func catalogVersion() async throws(StorageError) -> Int64

    /// The title and year of each of `ids` the catalogue holds, in one read.
    func titles(ofMovies ids: [Int]) async throws(StorageError) -> [Int: MovieTitle]
}

extension CatalogueStorage {
    public var fixedCatalog: Catalog? { nil }

    /// One ``movie(id:)`` a movie: for storage whose reads cost next to nothing (memory).
    public func titles(ofMovies ids: [Int]) async throws(StorageError) -> [Int: MovieTitle] {
        var titles: [Int: MovieTitle] = [:]
        for id in Set(ids) {
            if let movie = try await movie(id: id) { titles[id] = MovieTitle(name: movie.name, year: movie.year) }
        }
        return titles
    }
}

/// A movie's title and year, as a list that names movies shows them.
public struct MovieTitle: Sendable, Hashable {
    public var name: String
    public var year: Int

    public init(name: String, year: Int) {
        self.name = name
        self.year = year
    }
}

/// The two orderings of the API's top lists.
public enum TopListOrder: String, Sendable, CaseIterable {
    case grossing
    case rating
}
