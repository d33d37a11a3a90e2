import MovieContract

/// Every movie's ``SearchEntry``, a column at a time: the numbers in arrays and the texts packed
/// (``PackedStrings``), as the index keeps them. A million entries read from a database take
/// about 200 MB here, where as an array of entries (four strings each) they took half as much
/// again, and the index shares the release dates and title keys with them instead of copying.
package struct SearchEntries: Sendable {
    private(set) var ids: [Int] = []
    private(set) var years: [Int32] = []
    private(set) var grossing: [Int] = []
    private(set) var ratings: [Double] = []
    private(set) var runtimes: [Int32] = []
    private(set) var votes: [Int32] = []
    private(set) var genres: [UInt32] = []
    private(set) var releaseDates = PackedStrings()
    private(set) var titleKeys = PackedStrings()
    private(set) var titleWords = PackedStrings()
    private(set) var allWords = PackedStrings()

    package init() {}

    package init(_ entries: [SearchEntry]) {
        reserveCapacity(entries.count)
        for entry in entries { append(entry) }
    }

    package var count: Int { ids.count }

    package mutating func reserveCapacity(_ count: Int) {
        ids.reserveCapacity(count)
        years.reserveCapacity(count)
        grossing.reserveCapacity(count)
        ratings.reserveCapacity(count)
        runtimes.reserveCapacity(count)
        votes.reserveCapacity(count)
        genres.reserveCapacity(count)
    }

    package mutating func append(_ entry: SearchEntry) {
        ids.append(entry.id)
        years.append(Int32(clamping: entry.year))
        grossing.append(entry.grossing)
        ratings.append(entry.rating)
        runtimes.append(Int32(clamping: entry.runtime))
        votes.append(Int32(clamping: entry.votes))
        genres.append(entry.genres)
        releaseDates.append(entry.releaseDate)
        titleKeys.append(entry.titleKey)
        titleWords.append(entry.titleWords)
        allWords.append(entry.allWords)
    }
}
