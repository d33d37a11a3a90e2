/// Reads path parameters strictly: ASCII digits only, no sign, within range.
enum ParameterParsing {
    static let yearRange = 1...9999

    static func movieID(_ text: String?) throws(ErrorAnswer) -> Int {
        guard let text, !text.isEmpty else { throw .badRequest("The movie id is missing.") }
        guard let id = wholeNumber(text[...]) else {
            throw .badRequest("The movie id must be a whole number from 0 to \(Int.max), not '\(excerpt(text))'.")
        }
        return id
    }

    static func year(_ text: String?) throws(ErrorAnswer) -> Int {
        guard let text, !text.isEmpty else { throw .badRequest("The year is missing.") }
        guard let year = year(in: text[...]) else {
            throw .badRequest("The year must be a whole number from 1 to 9999, not '\(excerpt(text))'.")
        }
        return year
    }

    /// ASCII digits only, within `Int`; `nil` for anything else (an empty text, a sign, a space).
    static func wholeNumber(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        return Int(text)
    }

    /// A year in ``yearRange``, written as ``wholeNumber(_:)`` reads it.
    static func year(in text: Substring) -> Int? {
        wholeNumber(text).flatMap { yearRange.contains($0) ? $0 : nil }
    }

    static func excerpt(_ text: String) -> String {
        let printable = text.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : String($0) }.joined()
        return printable.count > 40 ? String(printable.prefix(40)) + "…" : printable
    }
}
