import MovieStore

/// What `marquee --version` prints: the release, and the schema version of the store files it
/// reads and writes (a store of a newer schema is refused, never changed).
enum MarqueeVersion {
    /// The release; raised with every tagged release.
    static let release = "0.9.0"

    static var text: String { "marquee \(release) (movie store schema \(MovieStore.schemaVersion))" }
}
