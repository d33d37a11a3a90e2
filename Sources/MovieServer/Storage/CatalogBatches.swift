import MovieContract
import NIOConcurrencyHelpers

/// The movies of an import, made a batch at a time as storage writes them: a catalogue read
/// compactly (IMDb's data sets) is never held whole as movies, and what it is read from is let
/// go once written (``release()``), before storage makes the search index of what it wrote.
public struct CatalogBatches: Sendable {
    public let count: Int
    private let make: NIOLockedValueBox<(@Sendable (Range<Int>) -> [CatalogMovie])?>

    /// `make` gives the movies of a range of `0..<count`, in id order across the whole.
    public init(count: Int, make: @escaping @Sendable (Range<Int>) -> [CatalogMovie]) {
        self.count = count
        self.make = NIOLockedValueBox(make)
    }

    /// Lets go of what the movies are made from, in every copy: no batch is made after.
    public func release() {
        make.withLockedValue { $0 = nil }
    }

    public init(_ movies: [CatalogMovie]) {
        self.init(count: movies.count) { Array(movies[$0]) }
    }

    /// The movies in batches of `size`, made as each is asked for.
    public func batches(of size: Int) -> some Sequence<[CatalogMovie]> {
        let size = max(1, size)
        let make = make.withLockedValue { $0 }
        return stride(from: 0, to: make == nil ? 0 : count, by: size).lazy.map { start in make?(start..<min(count, start + size)) ?? [] }
    }
}
