import MovieContract

/// A search's year and filter as the in-memory index tests them: plain numbers where a field is
/// not asked about lets every movie through (an unknown votes count is -1, below any least number).
struct IndexFilter {
    /// The years, both ends included; none when the low end is above the high end.
    let firstYear: Int32
    let lastYear: Int32
    let runtime: ClosedRange<Int32>?
    let minimumVotes: Int32
    let minimumRating: Double
    let genres: UInt32

    init(_ search: MovieSearch) {
        let filter = search.filter
        let span = filter.years ?? Int.min...Int.max
        let first = max(span.lowerBound, search.year ?? Int.min), last = min(span.upperBound, search.year ?? Int.max)
        (firstYear, lastYear) = (Int32(clamping: first), Int32(clamping: last))
        runtime = filter.runtime.map { Int32(clamping: $0.lowerBound)...Int32(clamping: $0.upperBound) }
        minimumVotes = filter.minimumVotes.map { Int32(clamping: $0) } ?? Int32.min
        minimumRating = filter.minimumRating ?? -.infinity
        genres = MovieFilter.genreBits(filter.genres)
    }
}
