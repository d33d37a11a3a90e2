import Foundation

/// A forward-only reader of JSON bytes for types that read themselves (``JSONReadable``): no
/// tree of values in between and none of `Decodable`'s containers, so a body is read in one pass.
///
/// It accepts only what it is sure of, by RFC 8259: objects, arrays, strings (escapes and
/// surrogate pairs included, valid UTF-8 only), integers that fit an `Int`, numbers, `true`,
/// `false`, `null`, at most ``maximumDepth`` containers deep. Anything else makes it throw
/// ``Declined``, and ``ResponseDecoding`` then decodes the body with `JSONDecoder`, whose value
/// or error is the answer. So a reader never has to explain a failure, and it must never accept
/// a body that `JSONDecoder` would read differently.
///
/// A reader exists only while ``read(_:from:)`` runs, over the bytes of one body.
public struct JSONReader {
    /// The reader will not vouch for the body; the caller falls back to `JSONDecoder`.
    public struct Declined: Error, Sendable {
        public init() {}
    }

    /// The deepest nesting of objects and arrays read; deeper bodies are declined before they
    /// could exhaust the stack.
    public static let maximumDepth = 256

    private let bytes: UnsafeRawBufferPointer
    private var position = 0
    private var depth = 0
    /// Whether the last thing read opened an object or array, so that no comma comes next.
    private var atContainerStart = false

    private init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// `Value` read from `body`, or `nil` when the reader declines it (or anything after it).
    public static func read<Value: JSONReadable>(_ type: Value.Type, from body: some ContiguousBytes) -> Value? {
        body.withUnsafeBytes { bytes -> Value? in
            var reader = JSONReader(bytes)
            do {
                let value = try Value(reading: &reader)
                try reader.expectEnd()
                return value
            } catch {
                return nil
            }
        }
    }

    // MARK: Containers

    /// Reads the `{` that opens an object; its keys follow through ``nextKey()``.
    public mutating func beginObject() throws(Declined) {
        try open(Byte.openBrace)
    }

    /// The next key of the object being read, its `:` consumed so that the value follows; `nil`
    /// once the object's `}` has been read.
    public mutating func nextKey() throws(Declined) -> JSONKey? {
        guard try advanceInContainer(closedBy: Byte.closeBrace) else { return nil }
        guard peek() == Byte.quote else { throw Declined() }
        position += 1
        let start = position
        while true {
            guard position < bytes.count else { throw Declined() }
            let byte = bytes[position]
            if byte == Byte.quote { break }
            // A key spelled with escapes, control characters or beyond ASCII is left to JSONDecoder,
            // which compares keys as Swift strings: "\u212A" (the Kelvin sign) is "K" there.
            guard byte != Byte.backslash, byte >= 0x20, byte < 0x80 else { throw Declined() }
            position += 1
        }
        let key = JSONKey(bytes: UnsafeRawBufferPointer(rebasing: bytes[start..<position]))
        position += 1
        skipWhitespace()
        guard peek() == Byte.colon else { throw Declined() }
        position += 1
        return key
    }

    /// Reads the `[` that opens an array; its elements follow, each after ``nextElement()``.
    public mutating func beginArray() throws(Declined) {
        try open(Byte.openBracket)
    }

    /// Whether another element of the array being read follows; `false` once its `]` has been read.
    public mutating func nextElement() throws(Declined) -> Bool {
        try advanceInContainer(closedBy: Byte.closeBracket)
    }

    // MARK: Scalars

    /// A string value.
    public mutating func readString() throws(Declined) -> String {
        skipWhitespace()
        guard peek() == Byte.quote else { throw Declined() }
        position += 1
        let start = position
        while position < bytes.count {
            let byte = bytes[position]
            if byte == Byte.quote {
                let text = try Self.validated(UnsafeRawBufferPointer(rebasing: bytes[start..<position]))
                position += 1
                valueEnded()
                return text
            }
            if byte == Byte.backslash { return try readEscapedString(from: start) }
            guard byte >= 0x20 else { throw Declined() }
            position += 1
        }
        throw Declined()
    }

    /// An integer written without a fraction or exponent, that fits an `Int`.
    public mutating func readInt() throws(Declined) -> Int {
        skipWhitespace()
        let negative = peek() == Byte.minus
        if negative { position += 1 }
        let digitsStart = position
        var magnitude = 0
        while position < bytes.count, let digit = Self.digit(bytes[position]) {
            let (shifted, overflowA) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflowB) = shifted.addingReportingOverflow(digit)
            // Int.min's magnitude does not fit; such a body is left to JSONDecoder.
            guard !overflowA, !overflowB else { throw Declined() }
            magnitude = sum
            position += 1
        }
        let digitCount = position - digitsStart
        guard digitCount > 0, digitCount == 1 || bytes[digitsStart] != Byte.zero else { throw Declined() }
        guard position == bytes.count || !Self.cannotFollowScalar(bytes[position]) else { throw Declined() }
        valueEnded()
        return negative ? -magnitude : magnitude
    }

    /// A number, read as the nearest `Double`.
    public mutating func readDouble() throws(Declined) -> Double {
        skipWhitespace()
        let start = position
        let shape = try scanNumber()
        valueEnded()
        if !shape.hasFractionOrExponent, shape.integerDigits <= 15 {
            var value = 0.0
            for index in (shape.negative ? start + 1 : start)..<position {
                value = value * 10 + Double(bytes[index] - Byte.zero)
            }
            return shape.negative ? -value : value
        }
        let digits = UnsafeRawBufferPointer(rebasing: bytes[start..<position])
        guard let value = Double(String(decoding: digits, as: UTF8.self)), value.isFinite else { throw Declined() }
        // A number too small for a Double is left to JSONDecoder to round or refuse.
        guard value.isNormal || !Self.hasNonZeroMantissa(digits) else { throw Declined() }
        return value
    }

    /// Reads and checks one value of any kind, and forgets it: for keys the reader does not know.
    public mutating func skipValue() throws(Declined) {
        skipWhitespace()
        switch peek() {
        case Byte.openBrace:
            try beginObject()
            while try nextKey() != nil { try skipValue() }
        case Byte.openBracket:
            try beginArray()
            while try nextElement() { try skipValue() }
        case Byte.quote:
            _ = try readString()
        case UInt8(ascii: "t"):
            try readLiteral("true")
        case UInt8(ascii: "f"):
            try readLiteral("false")
        case UInt8(ascii: "n"):
            try readLiteral("null")
        default:
            _ = try scanNumber()
            valueEnded()
        }
    }

    // MARK: Structure

    private mutating func open(_ bracket: UInt8) throws(Declined) {
        skipWhitespace()
        guard peek() == bracket, depth < Self.maximumDepth else { throw Declined() }
        position += 1
        depth += 1
        atContainerStart = true
    }

    /// Moves past the `,` before the next member, or the closing bracket; `false` when closed.
    private mutating func advanceInContainer(closedBy closer: UInt8) throws(Declined) -> Bool {
        skipWhitespace()
        if peek() == closer {
            position += 1
            depth -= 1
            valueEnded()
            return false
        }
        if atContainerStart {
            atContainerStart = false
        } else {
            guard peek() == Byte.comma else { throw Declined() }
            position += 1
            skipWhitespace()
            // A trailing comma is not JSON.
            guard peek() != closer else { throw Declined() }
        }
        return true
    }

    private mutating func valueEnded() {
        atContainerStart = false
    }

    private mutating func expectEnd() throws(Declined) {
        skipWhitespace()
        guard position == bytes.count, depth == 0 else { throw Declined() }
    }

    private mutating func readLiteral(_ word: StaticString) throws(Declined) {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count else { throw Declined() }
        for offset in 0..<count where bytes[position + offset] != word.utf8Start[offset] {
            throw Declined()
        }
        position += count
        guard position == bytes.count || !Self.cannotFollowScalar(bytes[position]) else { throw Declined() }
        valueEnded()
    }

    private func peek() -> UInt8? {
        position < bytes.count ? bytes[position] : nil
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case Byte.space, Byte.tab, Byte.newline, Byte.carriageReturn: position += 1
            default: return
            }
        }
    }

    // MARK: Numbers

    private struct NumberShape {
        var negative: Bool
        var integerDigits: Int
        var hasFractionOrExponent: Bool
    }

    /// Moves past a number written as RFC 8259 has it: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
    private mutating func scanNumber() throws(Declined) -> NumberShape {
        var shape = NumberShape(negative: false, integerDigits: 0, hasFractionOrExponent: false)
        if peek() == Byte.minus {
            shape.negative = true
            position += 1
        }
        let integerStart = position
        shape.integerDigits = skipDigits()
        guard shape.integerDigits > 0, shape.integerDigits == 1 || bytes[integerStart] != Byte.zero else { throw Declined() }
        if peek() == Byte.dot {
            position += 1
            guard skipDigits() > 0 else { throw Declined() }
            shape.hasFractionOrExponent = true
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            position += 1
            if peek() == Byte.plus || peek() == Byte.minus { position += 1 }
            guard skipDigits() > 0 else { throw Declined() }
            shape.hasFractionOrExponent = true
        }
        guard position == bytes.count || !Self.cannotFollowScalar(bytes[position]) else { throw Declined() }
        return shape
    }

    private mutating func skipDigits() -> Int {
        let start = position
        while position < bytes.count, Self.digit(bytes[position]) != nil { position += 1 }
        return position - start
    }

    private static func hasNonZeroMantissa(_ number: UnsafeRawBufferPointer) -> Bool {
        for byte in number {
            if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { return false }
            if byte > Byte.zero, byte <= Byte.nine { return true }
        }
        return false
    }

    private static func digit(_ byte: UInt8) -> Int? {
        byte >= Byte.zero && byte <= Byte.nine ? Int(byte - Byte.zero) : nil
    }

    /// Whether `byte` may not directly follow a number or literal (`1x`, `truex`, `1.5.2`).
    private static func cannotFollowScalar(_ byte: UInt8) -> Bool {
        switch byte {
        case Byte.space, Byte.tab, Byte.newline, Byte.carriageReturn, Byte.comma, Byte.closeBrace, Byte.closeBracket: false
        default: true
        }
    }

    // MARK: Strings

    /// The rest of a string that holds escapes, from its first byte at `start`.
    private mutating func readEscapedString(from start: Int) throws(Declined) -> String {
        var utf8 = [UInt8](UnsafeRawBufferPointer(rebasing: bytes[start..<position]))
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            switch byte {
            case Byte.quote:
                valueEnded()
                guard let text = String(validating: utf8, as: UTF8.self) else { throw Declined() }
                return text
            case Byte.backslash:
                try readEscape(into: &utf8)
            default:
                guard byte >= 0x20 else { throw Declined() }
                utf8.append(byte)
            }
        }
        throw Declined()
    }

    private mutating func readEscape(into utf8: inout [UInt8]) throws(Declined) {
        guard let escaped = peek() else { throw Declined() }
        position += 1
        switch escaped {
        case Byte.quote, Byte.backslash, UInt8(ascii: "/"): utf8.append(escaped)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(Byte.newline)
        case UInt8(ascii: "r"): utf8.append(Byte.carriageReturn)
        case UInt8(ascii: "t"): utf8.append(Byte.tab)
        case UInt8(ascii: "u"):
            var scalar = try readHexQuad()
            if (0xD800...0xDBFF).contains(scalar) {
                // A high surrogate counts only with the low one that must follow it.
                guard position + 1 < bytes.count, bytes[position] == Byte.backslash, bytes[position + 1] == UInt8(ascii: "u") else {
                    throw Declined()
                }
                position += 2
                let low = try readHexQuad()
                guard (0xDC00...0xDFFF).contains(low) else { throw Declined() }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw Declined()
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw Declined() }
            UTF8.encode(unicode) { utf8.append($0) }
        default:
            throw Declined()
        }
    }

    private mutating func readHexQuad() throws(Declined) -> UInt32 {
        guard position + 4 <= bytes.count else { throw Declined() }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let nibble: UInt8
            switch byte {
            case Byte.zero...Byte.nine: nibble = byte - Byte.zero
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = byte - UInt8(ascii: "A") + 10
            default: throw Declined()
            }
            value = value << 4 | UInt32(nibble)
            position += 1
        }
        return value
    }

    private static func validated(_ utf8: UnsafeRawBufferPointer) throws(Declined) -> String {
        guard let text = String(validating: utf8, as: UTF8.self) else { throw Declined() }
        return text
    }
}

/// A key of the object a ``JSONReader`` is reading, compared without making a `String` of it.
/// It points into the body being read: compare it there and then, never keep it.
public struct JSONKey {
    fileprivate let bytes: UnsafeRawBufferPointer

    /// Whether the key is exactly `name`.
    public static func == (key: JSONKey, name: StaticString) -> Bool {
        let count = name.utf8CodeUnitCount
        guard key.bytes.count == count else { return false }
        for index in 0..<count where key.bytes[index] != name.utf8Start[index] {
            return false
        }
        return true
    }
}

/// The bytes of JSON's punctuation.
private enum Byte {
    static let quote = UInt8(ascii: "\"")
    static let backslash = UInt8(ascii: "\\")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")
    static let colon = UInt8(ascii: ":")
    static let comma = UInt8(ascii: ",")
    static let minus = UInt8(ascii: "-")
    static let plus = UInt8(ascii: "+")
    static let dot = UInt8(ascii: ".")
    static let zero = UInt8(ascii: "0")
    static let nine = UInt8(ascii: "9")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let newline = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
}
