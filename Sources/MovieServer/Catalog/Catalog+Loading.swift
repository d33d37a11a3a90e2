import Foundation
import MovieContract
import TextFormatting

extension Catalog {
    /// The ten movies of the original API, bundled with the server.
    public static func reference() throws(CatalogError) -> Catalog {
        guard let url = Bundle.module.url(forResource: "catalog", withExtension: "json") else {
            throw .unreadable(file: "catalog.json", reason: "the bundled reference catalog is missing from the build")
        }
        return try load(from: url)
    }

    /// Loads a catalog from a JSON array of movies in the API's shape.
    public static func load(from url: URL) throws(CatalogError) -> Catalog {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unreadable(file: url.path, reason: FileErrorText.reason(error))
        }
        return try decode(data, source: url.path)
    }

    /// Decodes a catalog from JSON data; `source` names it in error messages.
    public static func decode(_ data: Data, source: String) throws(CatalogError) -> Catalog {
        try Catalog(movies: decodeMovies(data, source: source), source: source)
    }

    /// The movies of a catalog file, checked as a catalog checks them, without building one.
    public static func loadMovies(from url: URL) throws(CatalogError) -> [CatalogMovie] {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unreadable(file: url.path, reason: FileErrorText.reason(error))
        }
        let movies = try decodeMovies(data, source: url.path)
        try check(movies, source: url.path)
        return movies
    }

    private static func decodeMovies(_ data: Data, source: String) throws(CatalogError) -> [CatalogMovie] {
        let movies: [CatalogMovie]
        do {
            movies = try JSONDecoder().decode([CatalogMovie].self, from: data)
        } catch let error as DecodingError {
            throw .malformed(file: source, reason: Self.describe(error))
        } catch {
            throw .malformed(file: source, reason: String(describing: error))
        }
        return movies
    }

    private static func describe(_ error: DecodingError) -> String {
        let (path, detail): ([any CodingKey], String) =
            switch error {
            case let .dataCorrupted(context) where context.codingPath.isEmpty:
                ([], "the file is not valid JSON")
            case let .typeMismatch(_, context), let .valueNotFound(_, context), let .dataCorrupted(context):
                (context.codingPath, context.debugDescription)
            case let .keyNotFound(key, context):
                (context.codingPath + [key], "the key is missing")
            @unknown default:
                ([], String(describing: error))
            }
        let location = path.reduce("$") { $0 + ($1.intValue.map { "[\($0)]" } ?? ".\($1.stringValue)") }
        return "at \(location): \(detail)"
    }
}
