import Foundation
import Movies

/// Searches as people type them, each with the film that must come first, over a small catalogue
/// built for them: sequels and spin-offs that grossed more than the film asked for, titles written
/// with their article last, initials with dots, titles that are one common word. Grossings are
/// near the real ones, raised where a sequel has to out-gross the film it follows.
public enum RelevanceTable {
    /// A film of the catalogue: its id, title, year and grossing.
    public struct Film: Sendable {
        public let id: Int
        public let title: String
        public let year: Int
        public let grossing: Int
    }

    public static let films: [Film] = [
        ("Star Wars", 1977, 775), ("Star Wars: Episode II - Attack of the Clones", 2002, 1_900),
        ("Star Wars: Episode VII - The Force Awakens", 2015, 2_068), ("Rogue One: A Star Wars Story", 2016, 1_056),
        ("E.T. the Extra-Terrestrial", 1982, 792), ("Titan A.E.", 2000, 36), ("Meet the Extra Terrestrials", 2010, 900), ("Eternals", 2021, 1_200),
        ("L.A. Confidential", 1997, 126), ("La La Land", 2016, 446), ("Confidential Assignment", 2017, 600),
        ("Jungle Book, The", 1967, 141), ("Jungle Book 2, The", 2003, 186), ("Return to the Jungle Book", 2020, 300),
        ("Mundo, El", 2010, 1), ("El Mundo de Ana", 2012, 5),
        ("Grande Illusion, La", 1937, 1), ("Illusion Grande", 2019, 80),
        ("Up", 2009, 735), ("Up: The Return", 2014, 900), ("Grown Ups", 2010, 271), ("Upgrade", 2018, 1_000),
        ("It", 2017, 701), ("It Chapter Two", 2019, 800), ("What It Takes", 2018, 950),
        ("Frozen", 2013, 1_280), ("Frozen II", 2019, 1_450),
        ("Alien", 1979, 104), ("Aliens", 1986, 300), ("Cowboys & Aliens", 2011, 174), ("Alien: Covenant", 2017, 240),
        ("Amélie", 2001, 174), ("Amélie Returns", 2008, 300),
        ("Spider-Man", 2002, 825), ("Spider-Man: No Way Home", 2021, 1_921),
    ].enumerated().map { index, film in Film(id: index + 1, title: film.0, year: film.1, grossing: film.2 * 1_000_000) }

    /// What a person types, and the title that must come first.
    public static let searches: [(query: String, first: String)] = [
        ("star wars", "Star Wars"), ("Star Wars", "Star Wars"), ("star-wars", "Star Wars"), ("  STAR   wars ", "Star Wars"),
        ("wars star", "Star Wars: Episode VII - The Force Awakens"), ("star wars episode ii", "Star Wars: Episode II - Attack of the Clones"),
        ("e.t.", "E.T. the Extra-Terrestrial"), ("et", "E.T. the Extra-Terrestrial"), ("E.T. the Extra-Terrestrial", "E.T. the Extra-Terrestrial"),
        ("l.a. confidential", "L.A. Confidential"), ("la confidential", "L.A. Confidential"),
        ("the jungle book", "Jungle Book, The"), ("el mundo", "Mundo, El"),
        ("la grande illusion", "Grande Illusion, La"), ("up", "Up"), ("upg", "Upgrade"), ("it", "It"), ("frozen", "Frozen"),
        ("alien", "Alien"), ("amelie", "Amélie"), ("spider man", "Spider-Man"),
    ]

    /// The search words of `query`, spelled for a URL's query string.
    public static func escaped(_ query: String) -> String {
        query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? query
    }
}
