/// A catalogue built for "did you mean": the typos each one edit or two from a title,
/// distractors nearer by frequency (`us` and `as` beside `v`, `angel` two edits from `jungel`,
/// `riva` one from `rivr`), and a title that is a year (`2012`, beside a film of 2012 with its actor). Plain values, so that the
/// server's tests, the store's and the command line's make their own movies of them.
public enum SuggestionCatalogue {
    public struct Entry: Sendable {
        public let id: Int
        public let title: String
        public let year: Int
        public let cast: [String]
    }

    public static let entries: [Entry] = [
        Entry(id: 1, title: "Zootopia", year: 2016, cast: ["Ginnifer Goodwin", "Jason Bateman"]),
        Entry(id: 2, title: "The Jungle Book", year: 2016, cast: ["Neel Sethi", "Bill Murray"]),
        Entry(id: 3, title: "The Jungle Book", year: 1967, cast: ["Phil Harris", "Sebastian Cabot"]),
        Entry(id: 4, title: "The Silent River", year: 2009, cast: ["Ava Costa"]),
        Entry(id: 5, title: "River of No Return", year: 1954, cast: ["Robert Mitchum", "Marilyn Monroe"]),
        Entry(id: 6, title: "Amour", year: 2012, cast: ["Emmanuelle Riva", "Jean-Louis Trintignant"]),
        Entry(id: 7, title: "Batman v Superman: Dawn of Justice", year: 2016, cast: ["Ben Affleck", "Henry Cavill"]),
        Entry(id: 8, title: "Us", year: 2019, cast: ["Lupita Nyong'o"]),
        Entry(id: 9, title: "Us and Them", year: 2018, cast: ["Tom Hughes"]),
        Entry(id: 10, title: "All of Us", year: 2020, cast: ["Andrew Scott"]),
        Entry(id: 11, title: "As Good as It Gets", year: 1997, cast: ["Jack Nicholson", "Helen Hunt"]),
        Entry(id: 12, title: "Doctor Strange", year: 2016, cast: ["Benedict Cumberbatch", "Rachel McAdams"]),
        Entry(id: 13, title: "Doctor Strange in the Multiverse of Madness", year: 2022, cast: ["Benedict Cumberbatch"]),
        Entry(id: 14, title: "2012", year: 2009, cast: ["John Cusack"]),
        Entry(id: 15, title: "Angel Heart", year: 1987, cast: ["Mickey Rourke"]),
        Entry(id: 16, title: "The Raven", year: 2012, cast: ["John Cusack"]),
    ]

    /// Each typo of the issue and the suggestion expected: the query, the year, how many movies.
    public static let typos: [(typed: String, query: String, year: Int?, movies: Int)] = [
        ("zootopa", "zootopia", nil, 1),
        ("jungel", "jungle", nil, 2),
        ("silent rivr", "silent river", nil, 1),
        ("batman vs superman", "batman v superman", nil, 1),
        ("doctor strange 2016", "doctor strange", 2016, 1),
        ("amour 2012", "amour", 2012, 1),
    ]

    /// Queries that get no suggestion: found as typed, a prefix being typed, a year that is a
    /// title's word (and finds as typed, or finds nothing as a year), nothing near enough.
    public static let withoutSuggestion = ["zootopia", "zoot", "doctor strange 2012", "2012 cusack", "xqzwv", "jungle xqzwv"]
}
