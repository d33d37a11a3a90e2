import Foundation

/// The exact bodies the original movie API serves, byte for byte, keyed by their path under `api/`.
///
/// They are the contract both sides are held to: server tests compare against them, and stub
/// transports answer with them.
public enum ReferenceBodies {
    /// The paths of every reference body, e.g. `movies/1.json`, `movies/topGrossing/2016.json`, `auth.txt`.
    public static let paths: [String] =
        (1...10).map { "movies/\($0).json" } + ["movies/topGrossing/2016.json", "movies/topRated/2016.json", "auth.txt"]

    /// The body stored at `path` (relative to `api/`), or `nil` when there is none.
    public static func body(at path: String) -> Data? {
        guard let root = Bundle.module.resourceURL?.appendingPathComponent("api") else { return nil }
        return try? Data(contentsOf: root.appendingPathComponent(path))
    }

    /// The API path a reference body answers, e.g. `movies/1.json` → `/api/movies/1`.
    public static func apiPath(for path: String) -> String {
        let withoutExtension = path.hasSuffix(".json") ? String(path.dropLast(5)) : path.hasSuffix(".txt") ? String(path.dropLast(4)) : path
        return "/api/" + withoutExtension
    }
}
