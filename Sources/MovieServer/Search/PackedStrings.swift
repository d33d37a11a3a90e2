import Foundation

/// Many strings as UTF-8 bytes in one buffer, each found by where it starts: a million titles
/// take their bytes and four more each, where an array of `String` took sixteen and an allocation
/// for every title longer than fifteen bytes. Compared in Unicode scalar order, which is the
/// order of their bytes.
struct PackedStrings: Sendable {
    private(set) var bytes: [UInt8]
    /// Where each string starts in `bytes`; one more, the end.
    private(set) var starts: [Int32]

    init() {
        bytes = []
        starts = [0]
    }

    /// Strings already packed, as a snapshot holds them (bounds checked by the reader).
    init(bytes: [UInt8], starts: [Int32]) {
        self.bytes = bytes
        self.starts = starts
    }

    init(count: Int, string: (Int) -> some StringProtocol) {
        self.init()
        starts.reserveCapacity(count + 1)
        for index in 0..<count { append(string(index)) }
    }

    mutating func append(_ raw: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: raw)
        starts.append(Int32(bytes.count))
    }

    /// Whether string `index` is `other`, byte for byte.
    func equals(_ index: Int, _ other: UnsafeRawBufferPointer) -> Bool {
        bytes.withUnsafeBytes { Self.compare(span(index, in: $0), other) == 0 }
    }

    /// `body` given string `index`'s bytes.
    func withBytes<Result>(_ index: Int, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        bytes.withUnsafeBytes { body(span(index, in: $0)) }
    }

    mutating func append(_ string: some StringProtocol) {
        bytes += string.utf8
        starts.append(Int32(bytes.count))
    }

    var count: Int { starts.count - 1 }

    /// How many times `byte` is in all the strings: the words of ` a b ` strings, counting spaces, at most.
    func count(of byte: UInt8) -> Int {
        bytes.withUnsafeBufferPointer { $0.reduce(0) { $1 == byte ? $0 + 1 : $0 } }
    }

    func string(at index: Int) -> String {
        String(decoding: bytes[Int(starts[index])..<Int(starts[index + 1])], as: UTF8.self)
    }

    /// How string `a` stands to string `b`: negative when it comes before, zero when equal.
    func compare(_ a: Int, _ b: Int) -> Int {
        bytes.withUnsafeBytes { Self.compare(span(a, in: $0), span(b, in: $0)) }
    }

    /// How string `index` stands to `other`: negative when it comes before, zero when equal.
    func compare(_ index: Int, to other: UnsafeBufferPointer<UInt8>) -> Int {
        bytes.withUnsafeBytes { Self.compare(span(index, in: $0), UnsafeRawBufferPointer(other)) }
    }

    /// Whether string `index` begins with `prefix`.
    func hasPrefix(_ index: Int, _ prefix: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.withUnsafeBytes { buffer in
            let mine = span(index, in: buffer)
            return mine.count >= prefix.count
                && Self.compare(UnsafeRawBufferPointer(rebasing: mine.prefix(prefix.count)), UnsafeRawBufferPointer(prefix)) == 0
        }
    }

    private func span(_ index: Int, in buffer: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: buffer[Int(starts[index])..<Int(starts[index + 1])])
    }

    private static func compare(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
        let shared = min(a.count, b.count)
        if shared > 0, let first = a.baseAddress, let second = b.baseAddress {
            let order = memcmp(first, second, shared)
            if order != 0 { return Int(order) }
        }
        return a.count - b.count
    }
}
