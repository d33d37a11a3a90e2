import Foundation
import MovieContract

/// The films an import read, held compactly: numbers in arrays, texts in buffers, the cast as
/// person numbers in a fixed number of slots a film, and the names of those people once each.
/// A million films cost about 150 MB here, where as catalogue movies they cost gigabytes; the
/// movies are made a batch at a time, as storage writes them (``movies(_:)``).
public struct IMDbFilms: Sendable {
    private(set) var ids: [Int] = []
    private var years: [Int16] = []
    private var ratings: [Float] = []
    private var runtimes: [Int32] = []
    private var votes: [Int] = []
    private var genres: [UInt32] = []
    private var titles = PackedText()
    /// Empty where the original title is the title.
    private var originals = PackedText()
    /// The `tconst` of a film whose text is not `tt` and its number in seven digits or more.
    private var unusualIMDbIDs: [Int: String] = [:]
    /// The row of each film, by the number of its `tconst`, while the files are read.
    private var rows: [Int: Int32] = [:]
    /// `castSize` slots a film: the person's number, 0 for an empty slot; and the billing order.
    private var castPeople: [Int32] = []
    private var castOrdering: [Int32] = []
    let castSize: Int
    /// Each person of a cast: the number of their name in `names`, -1 until read.
    private var people: [Int32: Int32] = [:]
    private var names = PackedText()

    init(castSize: Int) {
        self.castSize = castSize
    }

    public var count: Int { ids.count }

    /// How many films have at least one cast member billed.
    public var withCast: Int {
        (0..<count).count { castPeople[$0 * castSize] != 0 }
    }

    func contains(_ id: Int) -> Bool { rows[id] != nil }

    mutating func add(id: Int, imdbID: String, title: String, original: String?, year: Int, runtime: Int?, genres: [String]?) {
        rows[id] = Int32(ids.count)
        ids.append(id)
        if imdbID != Self.imdbID(id) { unusualIMDbIDs[id] = imdbID }
        titles.append(title)
        originals.append(original ?? "")
        years.append(Int16(year))
        ratings.append(0)
        runtimes.append(Int32(runtime ?? 0))
        votes.append(-1)
        self.genres.append(MovieFilter.genreBits(genres))
        castPeople.append(contentsOf: repeatElement(0, count: castSize))
        castOrdering.append(contentsOf: repeatElement(0, count: castSize))
    }

    mutating func rate(_ id: Int, rating: Double, votes count: Int) {
        guard let row = rows[id].map(Int.init) else { return }
        ratings[row] = Float((rating * 10).rounded())
        votes[row] = count
    }

    /// Keeps `person` in the film's cast if among the first `castSize` by billing order.
    mutating func bill(_ person: Int, at ordering: Int, in id: Int) {
        guard let row = rows[id].map(Int.init), let person = Int32(exactly: person), let ordering = Int32(exactly: ordering) else { return }
        let slots = row * castSize..<(row + 1) * castSize
        guard !slots.contains(where: { castPeople[$0] == person }) else { return }
        guard let last = slots.last, castPeople[last] == 0 || ordering < castOrdering[last] else { return }
        var slot = last
        while slot > slots.lowerBound, castPeople[slot - 1] == 0 || castOrdering[slot - 1] > ordering {
            castPeople[slot] = castPeople[slot - 1]
            castOrdering[slot] = castOrdering[slot - 1]
            slot -= 1
        }
        castPeople[slot] = person
        castOrdering[slot] = ordering
    }

    /// Marks every person of a cast as wanted from the names file; how many there are.
    mutating func wantNames() -> Int {
        for person in castPeople where person != 0 { people[person] = -1 }
        return people.count
    }

    func wants(_ person: Int) -> Bool { Int32(exactly: person).map { people[$0] != nil } ?? false }

    mutating func name(_ person: Int, _ name: String) {
        guard let person = Int32(exactly: person), people[person] != nil else { return }
        people[person] = Int32(names.count)
        names.append(name)
    }

    private func name(ofSlot slot: Int) -> String? {
        let person = castPeople[slot]
        guard person != 0, let number = people[person], number >= 0, !names.isEmpty(at: Int(number)) else { return nil }
        return names.text(at: Int(number))
    }

    /// The films of `rows` as catalogue movies, in id order (``sortedByID()`` first). IMDb's data
    /// sets carry a year but no release date: the date is the year's first day.
    public func movies(_ range: Range<Int>) -> [CatalogMovie] {
        range.map { row in
            let year = Int(years[row])
            var movie = CatalogMovie(
                name: titles.text(at: row), id: ids[row], year: year, releaseDate: String(format: "%04d-01-01", year), grossing: 0,
                rating: Double(ratings[row]),
                cast: (0..<castSize).compactMap { name(ofSlot: row * castSize + $0) }.map(CatalogMovie.Actor.init(name:))
            )
            movie.details = CatalogMovieDetails(
                imdbID: unusualIMDbIDs[ids[row]] ?? Self.imdbID(ids[row]), originalTitle: originals.isEmpty(at: row) ? nil : originals.text(at: row),
                runtimeMinutes: runtimes[row] == 0 ? nil : Int(runtimes[row]),
                genres: genres[row] == 0 ? nil : CatalogMovieDetails.knownGenres.indices.filter { genres[row] & 1 << UInt32($0) != 0 }.map { CatalogMovieDetails.knownGenres[$0] },
                votes: votes[row] < 0 ? nil : votes[row]
            )
            return movie
        }
    }

    /// The films in id order, as storage takes them; a file in tconst order is already. After ``finishReading()``.
    mutating func sortByID() {
        guard !zip(ids, ids.dropFirst()).allSatisfy({ $0 < $1 }) else { return }
        let order = ids.indices.sorted { ids[$0] < ids[$1] }
        func permuted<Element>(_ array: [Element], slots: Int = 1) -> [Element] {
            order.flatMap { array[$0 * slots..<($0 + 1) * slots] }
        }
        ids = permuted(ids)
        years = permuted(years)
        ratings = permuted(ratings)
        runtimes = permuted(runtimes)
        votes = permuted(votes)
        genres = permuted(genres)
        castPeople = permuted(castPeople, slots: castSize)
        var sortedTitles = PackedText(), sortedOriginals = PackedText()
        for row in order {
            sortedTitles.append(titles.text(at: row))
            sortedOriginals.append(originals.text(at: row))
        }
        (titles, originals) = (sortedTitles, sortedOriginals)
    }

    /// Lets go of what only reading needed: the rows by id and the billing orders.
    mutating func finishReading() {
        rows = [:]
        castOrdering = []
    }

    /// IMDb's usual writing of a title's id: `tt` and the number in at least seven digits.
    private static func imdbID(_ id: Int) -> String {
        let digits = String(id)
        return "tt" + String(repeating: "0", count: max(0, 7 - digits.count)) + digits
    }
}
