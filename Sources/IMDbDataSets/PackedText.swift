/// Many short texts in one buffer, each by its number: a million titles cost their bytes and four
/// bytes each, not a string's header and allocation each.
struct PackedText: Sendable {
    private var bytes: [UInt8] = []
    private var ends: [Int32] = []

    var count: Int { ends.count }

    mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
        ends.append(Int32(bytes.count))
    }

    func text(at index: Int) -> String {
        let start = index == 0 ? 0 : Int(ends[index - 1])
        return String(decoding: bytes[start..<Int(ends[index])], as: UTF8.self)
    }

    func isEmpty(at index: Int) -> Bool {
        (index == 0 ? 0 : ends[index - 1]) == ends[index]
    }
}
