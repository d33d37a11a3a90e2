import MovieContract

/// The movies of an import, made a batch at a time as storage writes them: a catalogue read
/// compactly (IMDb's data sets) is never held whole as movies.
public struct CatalogBatches: Sendable {
    public let count: Int
    private let make: @Sendable (Range<Int>) -> [CatalogMovie]

    /// `make` gives the movies of a range of `0..<count`, in id order across the whole.
    public init(count: Int, make: @escaping @Sendable (Range<Int>) -> [CatalogMovie]) {
        self.count = count
        self.make = make
    }

    public init(_ movies: [CatalogMovie]) {
        self.init(count: movies.count) { Array(movies[$0]) }
    }

    /// The movies in batches of `size`, made as each is asked for.
    public func batches(of size: Int) -> some Sequence<[CatalogMovie]> {
        let size = max(1, size)
        return stride(from: 0, to: count, by: size).lazy.map { start in make(start..<min(count, start + size)) }
    }
}
