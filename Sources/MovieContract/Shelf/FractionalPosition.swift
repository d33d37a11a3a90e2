/// A place in an ordered list that another can always be put before, after or between without
/// moving anything else: a string of digits `0-9A-Za-z` (62 of them, in byte order) compared as
/// text, never ending in `0`. Between two positions there is always a third. Inserting again and
/// again at one spot between two items is the worst case, a digit about every five times (the
/// Shelf article has the measures); a client gives a list new places
/// (``evenlySpaced(_:)``) before a position outgrows ``maximumLength``.
public enum FractionalPosition {
    static let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
    /// The longest position kept: a list reordered at one spot 10,000 times stays well below it.
    public static let maximumLength = 4096

    /// A position after `before` (nil: the start) and before `after` (nil: the end). At either end
    /// a digit is stepped, not halved, so that adding at the end or the top grows by a digit
    /// only every 61 times.
    public static func between(_ before: String?, _ after: String?) -> String {
        let low = (before ?? "").utf8.compactMap(value(of:))
        let high = after.map { $0.utf8.compactMap(value(of:)) }
        let digits: [Int]
        switch (low.isEmpty, high) {
        case (true, nil): digits = [31]
        case (false, nil): digits = stepUp(low)
        case let (true, high?): digits = stepDown(high)
        case let (false, high?): digits = midpoint(low, high)
        }
        return String(decoding: digits.map { Self.digits[$0] }, as: UTF8.self)
    }

    /// The positions to write to put an item at `place` (0 is the top) of a list whose other items
    /// stand at `others`, in order: the item's own, by index of the list as it then is, or, when
    /// that position would be longer than half the bound, new ones for every item.
    public static func placing(at place: Int, among others: [String]) -> [Int: String] {
        let place = min(max(place, 0), others.count)
        let made = between(place > 0 ? others[place - 1] : nil, place < others.count ? others[place] : nil)
        guard made.utf8.count > maximumLength / 2 else { return [place: made] }
        return Dictionary(uniqueKeysWithValues: evenlySpaced(others.count + 1).enumerated().map { ($0.offset, $0.element) })
    }

    /// `count` positions in order, as short as they come: a list's items given new places when one
    /// of theirs has grown too long.
    public static func evenlySpaced(_ count: Int) -> [String] {
        var width = 1
        while pow62(width) < count + 1 { width += 1 }
        return (1...max(count, 1)).prefix(count).map { number in
            var digits: [Int] = []
            var rest = number
            for _ in 0..<width {
                digits.append(rest % 62)
                rest /= 62
            }
            return String(decoding: (digits.reversed() + [31]).map { Self.digits[$0] }, as: UTF8.self)
        }
    }

    private static func pow62(_ exponent: Int) -> Int {
        (0..<exponent).reduce(1) { product, _ in product > Int.max / 62 ? Int.max : product * 62 }
    }

    /// The shortest position after `low`: its first digit below the last one, raised.
    private static func stepUp(_ low: [Int]) -> [Int] {
        for index in low.indices where low[index] < 61 {
            return Array(low[..<index]) + [low[index] + 1]
        }
        return low + [1]
    }

    /// A position before `high`: its first digit lowered, or a `0` and a position before the rest.
    private static func stepDown(_ high: [Int]) -> [Int] {
        guard let first = high.first else { return [31] }
        if first > 1 { return [first - 1] }
        if first == 1 { return [0, 61] }
        return [0] + stepDown(Array(high.dropFirst()))
    }

    /// A position strictly between `low` and `high` (low < high), by halving at the first digit
    /// where they part.
    private static func midpoint(_ low: [Int], _ high: [Int]) -> [Int] {
        var high: [Int]? = high
        var result: [Int] = []
        var index = 0
        while true {
            let lowDigit = index < low.count ? low[index] : 0
            let highDigit = high.map { index < $0.count ? $0[index] : 62 } ?? 62
            if lowDigit == highDigit {
                result.append(lowDigit)
            } else if (lowDigit + highDigit) / 2 > lowDigit {
                result.append((lowDigit + highDigit) / 2)
                return result
            } else {
                result.append(lowDigit)
                high = nil
            }
            index += 1
        }
    }

    /// Why `text` is not a position, or nil.
    public static func problem(with text: String) -> String? {
        guard !text.isEmpty, text.utf8.count <= maximumLength, text.utf8.allSatisfy({ value(of: $0) != nil }), text.utf8.last != UInt8(ascii: "0") else {
            return "a position is 1 to \(maximumLength) of the digits 0-9, A-Z and a-z, not ending in 0"
        }
        return nil
    }

    private static func value(of byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): Int(byte - UInt8(ascii: "A")) + 10
        case UInt8(ascii: "a")...UInt8(ascii: "z"): Int(byte - UInt8(ascii: "a")) + 36
        default: nil
        }
    }
}
