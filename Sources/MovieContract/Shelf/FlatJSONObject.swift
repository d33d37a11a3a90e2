/// A JSON object of one level whose values are strings, integers, booleans or null: what every
/// shelf record's value is. Read by hand, because a store holds tens of thousands of them and
/// `JSONDecoder` spends most of a `marquee diary` reading them. Anything else (a nested value, a
/// fraction, an exponent, a key twice, a lone surrogate, text after the object) is not read: the
/// caller then decodes with `JSONDecoder`, so that both ways agree on whatever they both accept.
public struct FlatJSONObject: Sendable {
    /// One value of the object.
    public enum Field: Sendable, Equatable {
        case string(String)
        case integer(Int)
        case bool(Bool)
        case null
    }

    private var fields: [(key: String, value: Field)] = []

    public init?(_ text: String) {
        var text = text
        guard let fields = text.withUTF8({ bytes in
            var reader = FlatJSONReader(bytes: bytes)
            return reader.object()
        }) else { return nil }
        self.fields = fields
    }

    public subscript(key: String) -> Field? {
        fields.first { $0.key == key }?.value
    }

    public func string(_ key: String) -> String? {
        if case let .string(value)? = self[key] { value } else { nil }
    }

    public func integer(_ key: String) -> Int? {
        if case let .integer(value)? = self[key] { value } else { nil }
    }

    public func bool(_ key: String) -> Bool? {
        if case let .bool(value)? = self[key] { value } else { nil }
    }
}

/// The reader of ``FlatJSONObject``, over the text's UTF-8.
private struct FlatJSONReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var at = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    mutating func object() -> [(key: String, value: FlatJSONObject.Field)]? {
        var fields: [(key: String, value: FlatJSONObject.Field)] = []
        skipSpace()
        guard take(UInt8(ascii: "{")) else { return nil }
        skipSpace()
        if take(UInt8(ascii: "}")) { return finished() ? fields : nil }
        while true {
            skipSpace()
            guard let key = string() else { return nil }
            guard !fields.contains(where: { $0.key == key }) else { return nil }
            skipSpace()
            guard take(UInt8(ascii: ":")) else { return nil }
            skipSpace()
            guard let value = field() else { return nil }
            fields.append((key, value))
            skipSpace()
            if take(UInt8(ascii: ",")) { continue }
            guard take(UInt8(ascii: "}")) else { return nil }
            return finished() ? fields : nil
        }
    }

    private mutating func finished() -> Bool {
        skipSpace()
        return at == bytes.count
    }

    private mutating func field() -> FlatJSONObject.Field? {
        guard at < bytes.count else { return nil }
        switch bytes[at] {
        case UInt8(ascii: "\""): return string().map { .string($0) }
        case UInt8(ascii: "t"): return word("true") ? .bool(true) : nil
        case UInt8(ascii: "f"): return word("false") ? .bool(false) : nil
        case UInt8(ascii: "n"): return word("null") ? .null : nil
        default: return integer().map { .integer($0) }
        }
    }

    private mutating func integer() -> Int? {
        let negative = take(UInt8(ascii: "-"))
        let first = at
        var value = 0
        while at < bytes.count, (48...57).contains(bytes[at]) {
            let (times, overflowTimes) = value.multipliedReportingOverflow(by: 10)
            let digit = Int(bytes[at] - 48)
            let (sum, overflowSum) = negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
            guard !overflowTimes, !overflowSum else { return nil }
            value = sum
            at += 1
        }
        let digits = at - first
        // JSON has no leading zeros; a fraction or an exponent is left to JSONDecoder.
        guard digits > 0, digits == 1 || bytes[first] != UInt8(ascii: "0") else { return nil }
        if at < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[at]) { return nil }
        return value
    }

    private mutating func string() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = at
        while at < bytes.count, bytes[at] != UInt8(ascii: "\""), bytes[at] != UInt8(ascii: "\\"), bytes[at] >= 0x20 { at += 1 }
        guard at < bytes.count else { return nil }
        if bytes[at] == UInt8(ascii: "\"") {
            defer { at += 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self)
        }
        var decoded = Array(bytes[start..<at])
        while at < bytes.count {
            let byte = bytes[at]
            at += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: decoded, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard at < bytes.count else { return nil }
                let escape = bytes[at]
                at += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
                case UInt8(ascii: "b"): decoded.append(0x08)
                case UInt8(ascii: "f"): decoded.append(0x0C)
                case UInt8(ascii: "n"): decoded.append(0x0A)
                case UInt8(ascii: "r"): decoded.append(0x0D)
                case UInt8(ascii: "t"): decoded.append(0x09)
                case UInt8(ascii: "u"):
                    guard let scalar = unicodeEscape() else { return nil }
                    decoded.append(contentsOf: Array(String(Character(scalar)).utf8))
                default: return nil
                }
            case 0..<0x20:
                return nil
            default:
                decoded.append(byte)
            }
        }
        return nil
    }

    /// The scalar of `\uXXXX` (the `\u` read), a surrogate pair's second half included.
    private mutating func unicodeEscape() -> Unicode.Scalar? {
        guard let high = hex4() else { return nil }
        switch high {
        case 0xD800...0xDBFF:
            guard take(UInt8(ascii: "\\")), take(UInt8(ascii: "u")), let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
            return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
        case 0xDC00...0xDFFF:
            return nil
        default:
            return Unicode.Scalar(high)
        }
    }

    private mutating func hex4() -> UInt32? {
        guard at + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[at]
            let digit: UInt8
            switch byte {
            case 48...57: digit = byte - 48
            case 65...70: digit = byte - 55
            case 97...102: digit = byte - 87
            default: return nil
            }
            value = value << 4 | UInt32(digit)
            at += 1
        }
        return value
    }

    private mutating func word(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard at + count <= bytes.count else { return false }
        for index in 0..<count where bytes[at + index] != text.utf8Start[index] { return false }
        at += count
        return true
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard at < bytes.count, bytes[at] == byte else { return false }
        at += 1
        return true
    }

    private mutating func skipSpace() {
        while at < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[at]) { at += 1 }
    }
}
