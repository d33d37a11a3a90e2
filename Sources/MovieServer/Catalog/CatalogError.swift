/// Why a catalog file could not be loaded.
public enum CatalogError: Error, Sendable, Hashable, CustomStringConvertible {
    case unreadable(file: String, reason: String)
    case malformed(file: String, reason: String)
    case invalidMovie(file: String, index: Int, reason: String)
    case duplicateID(file: String, id: Int)

    public var description: String {
        switch self {
        case let .unreadable(file, reason):
            "cannot read the catalog \(file): \(reason)"
        case let .malformed(file, reason):
            "the catalog \(file) is not a JSON array of movies: \(reason)"
        case let .invalidMovie(file, index, reason):
            "the catalog \(file) has an invalid movie at index \(index): \(reason)"
        case let .duplicateID(file, id):
            "the catalog \(file) has more than one movie with id \(id)"
        }
    }
}
