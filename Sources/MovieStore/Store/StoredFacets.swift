import GRDB
import MovieContract
import Synchronization

/// What a filter tests and a page is ordered by, of every movie one API has stored, held in
/// arrays, with each sort's order as SQLite gives it: a filtered page is then a pass over numbers
/// in memory (a fraction of a millisecond at 100,000 stored), where SQLite walked an index of
/// them all for a filter few movies pass (10 to 19 ms). Read once, and again whenever the API's
/// movies changed in what these hold (``StoredFacets/Signature``).
struct StoredFacets: Sendable {
    /// How many movies the API has stored and how often they changed in what facets hold, kept by
    /// the store's triggers (schema v18): facets read under another signature are out of date.
    struct Signature: Hashable, Sendable {
        var count: Int
        var generation: Int
    }

    let signature: Signature
    let rowIDs: [Int64]
    let years: [Int32]
    /// -1 where the catalogue did not say.
    let runtimes: [Int32]
    /// -1 where the catalogue did not say.
    let votes: [Int32]
    let genreBits: [UInt32]
    let ratings: [Double]
    /// The title words (` star wars `), one after another in one buffer.
    let titleWords: PackedText
    /// The cast's words (` mark hamill carrie fisher `), as the text index holds them.
    let castWords: PackedText
    /// Each movie's place in each sort's ascending order (then the id's), by sort.
    let ranks: [StoredSortIndex: [Int32]]
    /// The movies in each sort's ascending order, as indices into the arrays.
    let orders: [StoredSortIndex: [Int32]]

    /// The signature of `api`'s stored movies now.
    static func signature(api: String, in db: Database) throws -> Signature {
        let row = try Row.fetchOne(db, sql: "SELECT count, generation FROM storedMovieCount WHERE apiId = \(StoredAPI.idOfKey)", arguments: [api])
        return Signature(count: row?[0] ?? 0, generation: row?[1] ?? 0)
    }

    /// Reads `api`'s facets, all in the read transaction `db` is in.
    static func read(api: String, signature: Signature, in db: Database) throws -> StoredFacets {
        var rowIDs: [Int64] = [], years: [Int32] = [], runtimes: [Int32] = [], votes: [Int32] = [], genreBits: [UInt32] = [], ratings: [Double] = []
        var titles = PackedText.Builder()
        rowIDs.reserveCapacity(signature.count)
        years.reserveCapacity(signature.count)
        runtimes.reserveCapacity(signature.count)
        votes.reserveCapacity(signature.count)
        genreBits.reserveCapacity(signature.count)
        ratings.reserveCapacity(signature.count)
        var indexOfRow: [Int64: Int32] = [:]
        indexOfRow.reserveCapacity(signature.count)
        let rows = try Row.fetchCursor(db, sql: """
            SELECT rowid, year, runtimeMinutes, votes, genreBits, rating, titleWords FROM movie INDEXED BY \(StoredSortIndex.titleWords.name)
            WHERE apiId = \(StoredAPI.idOfKey)
            """, arguments: [api])
        while let row = try rows.next() {
            let rowID: Int64 = row[0]
            indexOfRow[rowID] = Int32(rowIDs.count)
            rowIDs.append(rowID)
            years.append(Int32(truncatingIfNeeded: row[1] as Int))
            runtimes.append(Int32(truncatingIfNeeded: (row[2] as Int?) ?? -1))
            votes.append(Int32(clamping: (row[3] as Int?) ?? -1))
            genreBits.append(UInt32(truncatingIfNeeded: row[4] as Int64))
            ratings.append(row[5])
            titles.append(row[6] as String)
        }
        var casts = [String](repeating: "", count: rowIDs.count)
        let castRows = try Row.fetchCursor(db, sql: "SELECT rowid, castWords FROM movieWords")
        while let row = try castRows.next() {
            if let index = indexOfRow[row[0]] { casts[Int(index)] = row[1] }
        }
        var castWords = PackedText.Builder()
        for cast in casts { castWords.append(cast) }
        var ranks: [StoredSortIndex: [Int32]] = [:], orders: [StoredSortIndex: [Int32]] = [:]
        for sort in StoredSortIndex.sorts {
            var order: [Int32] = []
            order.reserveCapacity(rowIDs.count)
            var rank = [Int32](repeating: 0, count: rowIDs.count)
            let ordered = try Int64.fetchCursor(db, sql: """
                SELECT rowid FROM movie INDEXED BY \(sort.name) WHERE apiId = \(StoredAPI.idOfKey) ORDER BY \(sort.column), id
                """, arguments: [api])
            while let rowID = try ordered.next() {
                guard let index = indexOfRow[rowID] else { continue }
                rank[Int(index)] = Int32(order.count)
                order.append(index)
            }
            ranks[sort] = rank
            orders[sort] = order
        }
        return StoredFacets(
            signature: signature, rowIDs: rowIDs, years: years, runtimes: runtimes, votes: votes, genreBits: genreBits,
            ratings: ratings, titleWords: titles.build(), castWords: castWords.build(), ranks: ranks, orders: orders
        )
    }

    /// Whether movie `index` passes `filter` and, when given, is of `year`: the rules of
    /// ``MovieSearching/filterConditions(_:)``, a detail not known failing its test.
    func passes(_ index: Int, filter: MovieFilter, genres: UInt32, year: Int?) -> Bool {
        let movieYear = Int(years[index])
        if let year, movieYear != year { return false }
        if let span = filter.years, !span.contains(movieYear) { return false }
        if let span = filter.runtime {
            let runtime = Int(runtimes[index])
            guard runtime >= 0, span.contains(runtime) else { return false }
        }
        if let least = filter.minimumVotes {
            let count = Int(votes[index])
            guard count >= 0, count >= least else { return false }
        }
        if let least = filter.minimumRating, !(ratings[index] >= least) { return false }
        return genreBits[index] & genres == genres
    }
}

/// The facets of each API read so far, kept while their signature holds. A process's first
/// filtered page of an API is read from SQLite, without them: reading 100,000 movies' facets costs
/// more than one page saves (231 ms), and a command asks once; a second filtered page (browse, as
/// a person types) reads them, and every later one uses them. An API of more than
/// ``mostMovies`` stored movies is always read from SQLite: its facets would hold hundreds of MB.
final class StoredFacetsCache: Sendable {
    /// The most movies of one API whose facets are read (about 80 MB of memory at this size).
    static let mostMovies = 250_000

    private struct Kept {
        var facets: StoredFacets?
        var asked = false
    }

    private let kept = Mutex<[String: Kept]>([:])
    private let mostMovies: Int

    init(mostMovies: Int = StoredFacetsCache.mostMovies) {
        self.mostMovies = mostMovies
    }

    /// `api`'s facets as they are in `db`'s read transaction: those kept when still current, else
    /// read again (and kept); nil for the API's first filtered page in this process, and for an
    /// API of too many movies.
    func facets(api: String, in db: Database) throws -> StoredFacets? {
        let signature = try StoredFacets.signature(api: api, in: db)
        guard signature.count <= mostMovies else {
            kept.withLock { $0[api] = nil }
            return nil
        }
        let known = kept.withLock { kept -> Kept in
            defer { kept[api, default: Kept()].asked = true }
            return kept[api] ?? Kept()
        }
        if let facets = known.facets, facets.signature == signature { return facets }
        guard known.asked else { return nil }
        let read = try StoredFacets.read(api: api, signature: signature, in: db)
        kept.withLock { $0[api] = Kept(facets: read, asked: true) }
        return read
    }
}
