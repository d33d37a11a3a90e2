/// Many short texts in one buffer of UTF-8 bytes, each found by its offset: a hundred thousand
/// titles as two arrays instead of a hundred thousand strings. Compared byte by byte, as SQLite
/// compares text.
struct PackedText: Sendable {
    private let bytes: [UInt8]
    /// Where each text starts, and one past the last's end.
    private let offsets: [Int32]

    /// Gathers texts in order.
    struct Builder {
        private var bytes: [UInt8] = []
        private var offsets: [Int32] = [0]

        mutating func append(_ text: String) {
            bytes.append(contentsOf: text.utf8)
            offsets.append(Int32(bytes.count))
        }

        func build() -> PackedText { PackedText(bytes: bytes, offsets: offsets) }
    }

    var count: Int { offsets.count - 1 }

    /// Whether text `index` holds `needle` anywhere (SQL's `instr(text, needle) > 0`).
    func contains(_ index: Int, _ needle: [UInt8]) -> Bool {
        let start = Int(offsets[index]), end = Int(offsets[index + 1])
        guard !needle.isEmpty else { return true }
        guard end - start >= needle.count else { return false }
        let first = needle[0]
        var position = start
        while position <= end - needle.count {
            if bytes[position] == first, matches(needle, at: position) { return true }
            position += 1
        }
        return false
    }

    /// Whether text `index` begins with `prefix`.
    func hasPrefix(_ index: Int, _ prefix: [UInt8]) -> Bool {
        let start = Int(offsets[index]), end = Int(offsets[index + 1])
        return end - start >= prefix.count && matches(prefix, at: start)
    }

    /// Whether text `index` is `text`.
    func equals(_ index: Int, _ text: [UInt8]) -> Bool {
        Int(offsets[index + 1] - offsets[index]) == text.count && hasPrefix(index, text)
    }

    private func matches(_ needle: [UInt8], at position: Int) -> Bool {
        for offset in needle.indices where bytes[position + offset] != needle[offset] { return false }
        return true
    }
}
