/// A query string's parameters, read one way for the router and for the response cache's key:
/// `&` separates parameters and empty ones (`a=1&&b=2`, a leading or trailing `&`) are skipped;
/// the first `=` ends the name; names and values are percent-decoded (an escape that is not
/// two hex digits, or that decodes to bytes that are not UTF-8, is kept as written); `+` is
/// kept as it is.
enum QueryParameters {
    static func read(_ query: Substring) -> [(name: String, value: String)] {
        var parameters: [(name: String, value: String)] = []
        for segment in query.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            if let equals = segment.firstIndex(of: UInt8(ascii: "=")) {
                parameters.append((decoded(segment[..<equals]), decoded(segment[segment.index(after: equals)...])))
            } else {
                parameters.append((decoded(segment[...]), ""))
            }
        }
        return parameters
    }

    /// The parameters as one string that differs exactly when the parameters differ, whatever
    /// their order: sorted, with `%`, `&` and `=` escaped in names and values.
    static func canonical(_ query: Substring) -> String {
        isCanonical(query.utf8) ? String(query) : sortedCanonical(query)
    }

    /// ``canonical(_:)`` made the long way: each parameter read, escaped, and the lot sorted.
    static func sortedCanonical(_ query: Substring) -> String {
        read(query)
            .map { escaped($0.name) + "=" + escaped($0.value) }
            .sorted()
            .joined(separator: "&")
    }

    /// Whether `query` is written as ``canonical(_:)`` writes it, so that it is its own canonical
    /// form: ASCII without `%` (nothing to decode or escape), no empty parameter, one `=` in each
    /// (nothing to escape, none to add), the parameters in order (ASCII strings sort by their bytes).
    private static func isCanonical(_ query: Substring.UTF8View) -> Bool {
        guard !query.isEmpty else { return false }
        var segmentStart = query.startIndex
        var previous: Range<Substring.UTF8View.Index>?
        var equalSigns = 0
        var index = query.startIndex
        while true {
            let atEnd = index == query.endIndex
            let byte = atEnd ? UInt8(ascii: "&") : query[index]
            if byte == UInt8(ascii: "&") {
                guard segmentStart < index, equalSigns == 1 else { return false }
                if let previous, query[segmentStart..<index].lexicographicallyPrecedes(query[previous]) { return false }
                previous = segmentStart..<index
                if atEnd { return true }
                equalSigns = 0
                segmentStart = query.index(after: index)
            } else if byte >= 0x80 || byte == UInt8(ascii: "%") {
                return false
            } else if byte == UInt8(ascii: "=") {
                equalSigns += 1
            }
            index = query.index(after: index)
        }
    }

    private static func decoded(_ bytes: Substring.UTF8View.SubSequence) -> String {
        guard bytes.contains(UInt8(ascii: "%")) else { return String(Substring(bytes)) }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"),
               let first = bytes.index(index, offsetBy: 1, limitedBy: bytes.endIndex), first < bytes.endIndex,
               let second = bytes.index(first, offsetBy: 1, limitedBy: bytes.endIndex), second < bytes.endIndex,
               let high = hexValue(bytes[first]), let low = hexValue(bytes[second]) {
                output.append(high << 4 | low)
                index = bytes.index(after: second)
            } else {
                output.append(byte)
                index = bytes.index(after: index)
            }
        }
        return String(validating: output, as: UTF8.self) ?? String(Substring(bytes))
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func escaped(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "=") }) else { return text }
        var output = ""
        for character in text.unicodeScalars {
            switch character {
            case "%": output += "%25"
            case "&": output += "%26"
            case "=": output += "%3D"
            default: output.unicodeScalars.append(character)
            }
        }
        return output
    }
}
