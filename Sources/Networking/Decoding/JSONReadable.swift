/// A value that reads itself from JSON with a ``JSONReader``, several times faster than through
/// `Decodable`; its `Decodable` conformance stays the authority.
///
/// ``ResponseDecoding`` tries the reader first. When the value's `init(reading:)` throws
/// ``JSONReader/Declined`` (a key missing or repeated, a value of another type, a date that is
/// not a day, anything unusual), the body is decoded with `JSONDecoder` instead, which gives the
/// value or the error with its JSON path. So `init(reading:)` must decline whatever its
/// `init(from:)` would not read to the same value, and may decline anything else it likes.
public protocol JSONReadable: Decodable {
    init(reading reader: inout JSONReader) throws(JSONReader.Declined)
}

extension Array: JSONReadable where Element: JSONReadable {
    public init(reading reader: inout JSONReader) throws(JSONReader.Declined) {
        try reader.beginArray()
        var elements: [Element] = []
        while try reader.nextElement() {
            elements.append(try Element(reading: &reader))
        }
        self = elements
    }
}
