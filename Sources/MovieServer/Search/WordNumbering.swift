/// Numbers words in the order they are first met, each kept once in a packed vocabulary and found
/// again through an open-addressing table of word numbers hashed by their bytes. A dictionary of
/// substrings kept each movie's whole text alive for every word first met in it, and with
/// millions of distinct words (names, numbers) cost hundreds of megabytes while an index was made.
struct WordNumbering {
    private(set) var vocabulary = PackedStrings()
    /// Word numbers by hash; -1 is an empty slot. Its count is a power of two.
    private var slots = [Int32](repeating: -1, count: 1 << 16)

    var count: Int { vocabulary.count }

    /// The word's number, given it if it is new.
    mutating func number(of word: Substring) -> Int32 {
        var word = word
        return word.withUTF8 { bytes in number(of: UnsafeRawBufferPointer(bytes)) }
    }

    private mutating func number(of bytes: UnsafeRawBufferPointer) -> Int32 {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: Self.hash(bytes)) & mask
        while slots[slot] >= 0 {
            if vocabulary.equals(Int(slots[slot]), bytes) { return slots[slot] }
            slot = (slot + 1) & mask
        }
        let number = Int32(vocabulary.count)
        vocabulary.append(bytes)
        slots[slot] = number
        if vocabulary.count * 10 > slots.count * 7 { grow() }
        return number
    }

    private mutating func grow() {
        slots = [Int32](repeating: -1, count: slots.count * 2)
        let mask = slots.count - 1
        for number in 0..<vocabulary.count {
            var slot = Int(truncatingIfNeeded: vocabulary.withBytes(number, Self.hash)) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(number)
        }
    }

    /// FNV-1a of the bytes.
    private static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return hash
    }
}
