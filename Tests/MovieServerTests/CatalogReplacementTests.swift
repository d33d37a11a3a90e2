import MovieContract
import MovieServer
import Testing

/// When an import takes a movie for another film under the same id.
@Suite("Catalog replacement")
struct CatalogReplacementTests {
    static let stored = CatalogMovie(name: "Zootopia", id: 7, year: 2016, releaseDate: "2016-03-04", grossing: 341_268_248, rating: 81, cast: [])

    @Test("another film: both its title (folded) and its release date differ")
    func anotherFilm() {
        var other = Self.stored
        other.name = "Lost Harbor"
        other.releaseDate = "1987-05-02"
        #expect(CatalogReplacement.isAnotherFilm(other, stored: Self.stored))
    }

    @Test("the same film: a corrected title, a corrected date, or a title that differs only in case, accents and punctuation")
    func sameFilm() {
        var retitled = Self.stored
        retitled.name = "Zootropolis"
        var redated = Self.stored
        redated.releaseDate = "2016-02-13"
        var recased = Self.stored
        recased.name = "ZOOTÔPIA!"
        recased.releaseDate = "2016-02-13"
        for movie in [retitled, redated, recased] {
            #expect(!CatalogReplacement.isAnotherFilm(movie, stored: Self.stored), "\(movie.name) \(movie.releaseDate)")
        }
    }
}
