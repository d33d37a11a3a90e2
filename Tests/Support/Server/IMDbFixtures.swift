import CompressNIO
import Foundation
import NIOCore

/// A small set of IMDb's data sets in their documented layout (tabs, `\N`, a header, gzip),
/// written to a folder: three films, a short, a TV film, an adult film, one with no year and a
/// series; their ratings; the principals of three films; and the names of those people.
public enum IMDbFixtures {
    public static let basicsHeader = "tconst\ttitleType\tprimaryTitle\toriginalTitle\tisAdult\tstartYear\tendYear\truntimeMinutes\tgenres"
    public static let basics = [
        basicsHeader,
        "tt0000001\tshort\tCarmencita\tCarmencita\t0\t1894\t\\N\t1\tDocumentary,Short",
        "tt0111161\tmovie\tThe Shawshank Redemption\tThe Shawshank Redemption\t0\t1994\t\\N\t142\tDrama",
        "tt0068646\tmovie\tThe Godfather\tThe Godfather\t0\t1972\t\\N\t175\tCrime,Drama",
        "tt0200001\ttvMovie\tA Film for TV\tA Film for TV\t0\t2001\t\\N\t90\tDrama",
        "tt0300001\tmovie\tAn Adult Film\tAn Adult Film\t1\t2003\t\\N\t80\tAdult",
        "tt0400001\tmovie\tNot Yet Dated\tNot Yet Dated\t0\t\\N\t\\N\t\\N\t\\N",
        "tt0500001\ttvSeries\tA Series\tA Series\t0\t2010\t2012\t45\tComedy",
        "tt0211915\tmovie\tAmélie\tLe Fabuleux Destin d'Amélie Poulain\t0\t2001\t\\N\t122\tComedy,Romance",
    ]
    public static let ratings = [
        "tconst\taverageRating\tnumVotes",
        "tt0111161\t9.3\t2900000", "tt0068646\t9.2\t2000000", "tt0000001\t5.7\t2100", "tt0200001\t6.1\t300",
    ]
    public static let principals = [
        "tconst\tordering\tnconst\tcategory\tjob\tcharacters",
        "tt0111161\t2\tnm0000151\tactor\t\\N\t[\"Ellis Boyd 'Red' Redding\"]",
        "tt0111161\t1\tnm0000209\tactor\t\\N\t[\"Andy Dufresne\"]",
        "tt0111161\t3\tnm0001104\tdirector\t\\N\t\\N",
        "tt0111161\t4\tnm0348409\tactor\t\\N\t[\"Heywood\"]",
        "tt0068646\t1\tnm0000008\tactor\t\\N\t[\"Don Vito Corleone\"]",
        "tt0211915\t1\tnm0851582\tactress\t\\N\t[\"Amélie Poulain\"]",
    ]
    public static let names = [
        "nconst\tprimaryName\tbirthYear\tdeathYear\tprimaryProfession\tknownForTitles",
        "nm0000151\tMorgan Freeman\t1937\t\\N\tactor,producer\ttt0111161",
        "nm0000209\tTim Robbins\t1958\t\\N\tactor\ttt0111161",
        "nm0001104\tFrank Darabont\t1959\t\\N\tdirector\ttt0111161",
        "nm0348409\tBob Gunton\t1945\t\\N\tactor\ttt0111161",
        "nm0000008\tMarlon Brando\t1924\t2004\tactor\ttt0068646",
        "nm0851582\tAudrey Tautou\t1976\t\\N\tactress\ttt0211915",
        "nm9999999\tNobody Needed\t\\N\t\\N\t\\N\t\\N",
    ]

    public static func gzip(_ text: String) throws -> Data {
        var buffer = ByteBuffer(string: text)
        let compressed = try buffer.compress(with: .gzip())
        return Data(compressed.readableBytesView)
    }

    /// A folder holding `files` (name → lines), gzip unless the name has no `.gz`.
    public static func folder(_ files: [String: [String]]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imdb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, lines) in files {
            let text = lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
            try (name.hasSuffix(".gz") ? try gzip(text) : Data(text.utf8)).write(to: folder.appendingPathComponent(name))
        }
        return folder
    }

    public static func all() throws -> URL {
        try folder(["title.basics.tsv.gz": basics, "title.ratings.tsv.gz": ratings, "title.principals.tsv.gz": principals, "name.basics.tsv.gz": names])
    }

}
