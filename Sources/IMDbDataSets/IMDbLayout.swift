/// The files of IMDb's non-commercial data sets that a catalogue is made of, and their columns as
/// IMDb documents them (https://developer.imdb.com/non-commercial-datasets/).
public enum IMDbLayout {
    public static let basics = (file: "title.basics.tsv", columns: [
        "tconst", "titleType", "primaryTitle", "originalTitle", "isAdult", "startYear", "endYear", "runtimeMinutes", "genres",
    ])
    public static let ratings = (file: "title.ratings.tsv", columns: ["tconst", "averageRating", "numVotes"])
    public static let principals = (file: "title.principals.tsv", columns: ["tconst", "ordering", "nconst", "category", "job", "characters"])
    public static let names = (file: "name.basics.tsv", columns: [
        "nconst", "primaryName", "birthYear", "deathYear", "primaryProfession", "knownForTitles",
    ])
}
