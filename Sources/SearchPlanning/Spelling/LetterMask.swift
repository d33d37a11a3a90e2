/// The letters a word holds, as 64 bits: `a`–`z` and `0`–`9` a bit each, any other scalar one of
/// the remaining 28 by its value. An edit brings at most one letter into a word and takes at most
/// one out, so two words whose masks differ by more than `d` letters either way are more than `d`
/// edits apart: a scan of a large vocabulary computes few distances.
package struct LetterMask: Sendable, Hashable {
    package let bits: UInt64

    package init(bits: UInt64) {
        self.bits = bits
    }

    package init(_ scalars: some Sequence<Unicode.Scalar>) {
        var bits: UInt64 = 0
        for scalar in scalars { bits |= Self.bit(scalar.value) }
        self.bits = bits
    }

    /// The mask of a word's UTF-8 bytes, read without making a string when they are ASCII.
    package init(utf8 bytes: UnsafeRawBufferPointer) {
        var bits: UInt64 = 0
        var ascii = true
        for byte in bytes {
            if byte >= 0x80 { ascii = false; break }
            bits |= Self.bit(UInt32(byte))
        }
        self = ascii ? LetterMask(bits: bits) : LetterMask(String(decoding: bytes, as: UTF8.self).unicodeScalars)
    }

    /// Whether a word with these letters may be within `edits` of one with `other`'s.
    package func mayBeWithin(_ edits: Int, of other: LetterMask) -> Bool {
        (bits & ~other.bits).nonzeroBitCount <= edits && (other.bits & ~bits).nonzeroBitCount <= edits
    }

    private static func bit(_ value: UInt32) -> UInt64 {
        switch value {
        case 0x61...0x7A: 1 << UInt64(value - 0x61)
        case 0x30...0x39: 1 << UInt64(26 + value - 0x30)
        default: 1 << UInt64(36 + value % 28)
        }
    }
}
