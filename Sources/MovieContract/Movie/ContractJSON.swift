/// Writes movies as the contract's compact JSON, byte for byte: keys in the order
/// `name, id, year, releaseDate, grossing, rating, cast`, then the details a movie has
/// (`imdbId, originalTitle, runtimeMinutes, genres, votes`), no spaces, `/` unescaped,
/// non-ASCII text as UTF-8, integral ratings without a fraction (`74`, not `74.0`).
///
/// `JSONEncoder` promises no key order, so the server writes these bodies itself.
public enum ContractJSON {
    public static func movie(_ movie: CatalogMovie) -> String {
        var output = ""
        write(movie, to: &output)
        return output
    }

    public static func list(_ movies: [CatalogMovie]) -> String {
        var output = "["
        for (index, movie) in movies.enumerated() {
            if index > 0 { output += "," }
            write(movie, to: &output)
        }
        return output + "]"
    }

    private static func write(_ movie: CatalogMovie, to output: inout String) {
        output += #"{"name":"#
        writeString(movie.name, to: &output)
        output += #","id":\#(movie.id),"year":\#(movie.year),"releaseDate":"#
        writeString(movie.releaseDate, to: &output)
        output += #","grossing":\#(movie.grossing),"rating":\#(number(movie.rating)),"cast":["#
        for (index, actor) in movie.cast.enumerated() {
            output += index > 0 ? #",{"name":"# : #"{"name":"#
            writeString(actor.name, to: &output)
            output += "}"
        }
        output += "]"
        let details = movie.details
        if let imdbID = details.imdbID {
            output += #","imdbId":"#
            writeString(imdbID, to: &output)
        }
        if let originalTitle = details.originalTitle {
            output += #","originalTitle":"#
            writeString(originalTitle, to: &output)
        }
        if let runtime = details.runtimeMinutes { output += #","runtimeMinutes":\#(runtime)"# }
        if let genres = details.genres {
            output += #","genres":["#
            for (index, genre) in genres.enumerated() {
                if index > 0 { output += "," }
                writeString(genre, to: &output)
            }
            output += "]"
        }
        if let votes = details.votes { output += #","votes":\#(votes)"# }
        output += "}"
    }

    public static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 9.007_199_254_740_992e15 {
            return String(Int64(value))
        }
        return String(value)
    }

    /// Appends `text` as a JSON string: quotes, backslashes and control characters escaped, the rest as is.
    public static func writeString(_ text: String, to output: inout String) {
        output += "\""
        if !text.utf8.contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 < 0x20 }) {
            output += text
            output += "\""
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            case "\u{00}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
