/// The rule for a watchlist note, the same on the server and in the app: at most
/// ``maximumLength`` Unicode code points and no control character (C0, DEL or C1), which a
/// terminal would act on and SQLite would cut a note at (U+0000).
public enum WatchlistNote {
    /// The most code points a note holds.
    public static let maximumLength = APILimits.noteLength

    /// Why `note` cannot be kept, as the end of a sentence, or `nil` when it can.
    public static func problem(with note: String) -> String? {
        var length = 0
        for scalar in note.unicodeScalars {
            length += 1
            if isControl(scalar) {
                return "a note cannot hold control characters (U+\(hex(scalar.value)) at position \(length))"
            }
        }
        if length > maximumLength {
            return "a note holds at most \(maximumLength) characters, not \(length)"
        }
        return nil
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
