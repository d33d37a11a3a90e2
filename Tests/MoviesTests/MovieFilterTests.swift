import MovieContract
import Testing

/// A filter's values as a person types them, and which movies a filter keeps.
@Suite("Movie filters")
struct MovieFilterTests {
    @Test("spans: both ends, open at the end, one value; the bounds hold at both ends")
    func spans() throws {
        #expect(try MovieFilterText.runtime("80-120") == 80...120)
        #expect(try MovieFilterText.runtime("180-") == 180...60_000)
        #expect(try MovieFilterText.runtime("95") == 95...95)
        #expect(try MovieFilterText.runtime("1-60000") == 1...60_000)
        #expect(try MovieFilterText.years("1990-1999") == 1990...1999)
        #expect(try MovieFilterText.years("9999") == 9999...9999)
        for bad in ["0", "60001", "-5", "80--90", "80-120-130", " 80", "８０", "", "-", "99999999999", "80-0"] {
            #expect(throws: MovieFilterText.Problem.self, "\(bad)") { try MovieFilterText.runtime(bad) }
        }
        do {
            _ = try MovieFilterText.runtime("120-80")
            Issue.record("an upside-down span was read")
        } catch {
            #expect(error.message == "The runtime span '120-80' is upside down: write the smaller end first (80-120).")
        }
    }

    @Test("genres in any case, several by commas, spelt as IMDb spells them; an unknown one names them all")
    func genres() throws {
        #expect(try MovieFilterText.genres("sci-fi,FILM-NOIR") == ["Sci-Fi", "Film-Noir"])
        #expect(throws: MovieFilterText.Problem.self) { try MovieFilterText.genres("Scifi") }
        do {
            _ = try MovieFilterText.genres("Drama,Noir")
            Issue.record("an unknown genre was read")
        } catch {
            #expect(error.message.hasPrefix("There is no genre 'Noir': the genres are Action, Adult"))
            #expect(error.message.hasSuffix("War, Western."))
        }
        #expect(MovieFilter(genres: ["War", "Action", "War"]).genres == ["Action", "War"], "each once, in IMDb's order")
    }

    @Test("votes and ratings: whole votes from 0, ratings on the catalogue's 0 to 100 with two decimals at most")
    func numbers() throws {
        #expect(try MovieFilterText.minimumVotes("0") == 0)
        #expect(try MovieFilterText.minimumVotes("1000000000") == 1_000_000_000)
        #expect(throws: MovieFilterText.Problem.self) { try MovieFilterText.minimumVotes("1000000001") }
        #expect(try MovieFilterText.minimumRating("72.5") == 72.5)
        #expect(try MovieFilterText.minimumRating("100") == 100)
        for bad in ["100.01", "101", "7.555", "-1", "ten", "nan", "inf", "7.", ".5", "1e1"] {
            #expect(throws: MovieFilterText.Problem.self, "\(bad)") { try MovieFilterText.minimumRating(bad) }
        }
        #expect([72.5, 70, 72.25, 0.05].map(MovieFilterText.rating) == ["72.5", "70", "72.25", "0.05"])
    }

    @Test("a movie passes when it has every field asked about; a field it does not know fails it")
    func admitting() {
        let details = CatalogMovieDetails(runtimeMinutes: 100, genres: ["Drama", "War"], votes: 5000)
        let filter = MovieFilter(genres: ["War", "Drama"], runtime: 90...100, years: 1990...1999, minimumVotes: 5000, minimumRating: 70)
        #expect(filter.admits(year: 1995, rating: 70, details: details))
        #expect(!filter.admits(year: 2000, rating: 70, details: details))
        #expect(!filter.admits(year: 1995, rating: 69.9, details: details))
        #expect(!filter.admits(year: 1995, rating: 70, details: CatalogMovieDetails(runtimeMinutes: 101, genres: ["Drama", "War"], votes: 5000)))
        #expect(!filter.admits(year: 1995, rating: 70, details: CatalogMovieDetails(runtimeMinutes: 100, genres: ["Drama"], votes: 5000)))
        #expect(!filter.admits(year: 1995, rating: 70, details: CatalogMovieDetails(runtimeMinutes: 100, genres: ["Drama", "War"], votes: 4999)))
        #expect(!MovieFilter(minimumVotes: 0).admits(year: 1995, rating: 70, details: CatalogMovieDetails()), "unknown votes are not 0 votes")
        #expect(MovieFilter().admits(year: 1995, rating: 70, details: nil))
        #expect(MovieFilter.genreBits(["Action", "Western"]) == 1 | 1 << 27)
    }

    @Test("the query string's parameters, in the contract's order, read back as the same filter")
    func queryItems() {
        let filter = MovieFilter(genres: ["Drama"], runtime: 80...80, years: 1990...9999, minimumVotes: 10, minimumRating: 7.5)
        #expect(filter.queryItems.map { "\($0.name)=\($0.value)" } == ["year=1990-9999", "genre=Drama", "runtime=80", "minVotes=10", "minRating=7.5"])
        #expect(MovieFilterText.phrase(year: nil, filter: filter) == " of 1990-9999, Drama, 80 minutes, 10+ votes, rated 7.5+")
        #expect(MovieFilterText.phrase(year: nil, filter: .none).isEmpty)
    }
}
