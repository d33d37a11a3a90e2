/// A made search index as bytes, kept in the database beside the catalogue version it was made
/// from: a server that starts, or learns of an import, reads it back in a fraction of a second
/// instead of making the index again for seconds. The arrays are written as this machine holds
/// them, after a header that names the format, and end with a checksum of them all; a snapshot of
/// another format or byte order, or with a byte changed, is refused, and the index is made from
/// the catalogue.
package enum SearchIndexSnapshot {
    /// Raised when bytes are not a snapshot this build can read; the index is then made again.
    package struct Unreadable: Error, CustomStringConvertible {
        package let reason: String
        package var description: String { "the stored search index cannot be read (\(reason)); it is made again" }
    }

    /// "MQIX", a format number (2: with the filters' runtimes, votes and genres), and a mark that tells the byte order.
    static let header: [UInt32] = [0x5849_514D, 2, 0x0102_0304]

    /// A 64-bit FNV-1a of `bytes` taken eight at a time: a byte changed anywhere changes it, and a
    /// snapshot of a million movies is checked in milliseconds.
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var checksum = SnapshotChecksum()
        bytes.withUnsafeBytes { checksum.add($0) }
        return checksum.value
    }

    /// The snapshot of the index of `entries`, made on the calling thread: an import stores it with
    /// the catalogue it wrote, so that servers read it instead of making it after the import.
    /// The entries are let go once the index is made, before its bytes are written: an importer
    /// of a million movies does not hold both.
    package static func make(from entries: consuming SearchEntries) -> [UInt8] {
        let index = MemorySearchIndex(entries: entries)
        return index.snapshot()
    }

    /// The snapshot of the index of `entries`, handed to `store` a part at a time as it is made
    /// (the part, its number from 0, and how many there are), each part as ``parts(of:)`` would
    /// cut the whole: an importer holds the index and one part, not the index and its bytes.
    package static func make(
        from entries: consuming SearchEntries, partSize: Int = partSize,
        store: @escaping (_ part: ArraySlice<UInt8>, _ number: Int, _ parts: Int) -> Void
    ) {
        let index = MemorySearchIndex(entries: entries)
        index.writeSnapshot(partSize: partSize, store: store)
    }

    /// The parts a database keeps `snapshot` in.
    package static func parts(of snapshot: [UInt8], partSize: Int = partSize) -> [ArraySlice<UInt8>] {
        stride(from: 0, to: max(1, snapshot.count), by: partSize).map { snapshot[$0..<min(snapshot.count, $0 + partSize)] }
    }

    /// How large the parts a database keeps it in are: one row of a few megabytes at a time.
    package static let partSize = 8 << 20
}

/// FNV-1a over eight bytes at a time, then the last bytes one at a time: fed the whole, or parts
/// whose lengths are multiples of eight and then the rest, it gives the same value.
struct SnapshotChecksum {
    private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

    mutating func add(_ bytes: UnsafeRawBufferPointer) {
        let words = bytes.count / 8
        for word in 0..<words {
            value = (value ^ bytes.loadUnaligned(fromByteOffset: word * 8, as: UInt64.self)) &* 0x0000_0100_0000_01B3
        }
        for byte in bytes[(words * 8)...] { value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
    }
}

/// Writes a snapshot's arrays one after the other, each after its length in bytes: into one
/// buffer, or a part at a time to a store as the parts fill, or only counting the bytes.
struct SnapshotWriter {
    private var bytes: [UInt8] = []
    private var checksum = SnapshotChecksum()
    private let partSize: Int
    private let store: ((ArraySlice<UInt8>) -> Void)?
    private let counting: Bool
    /// How many bytes were written, the checksum not counted.
    private(set) var length = 0

    /// A writer whose buffer holds `capacity` bytes from the start: grown by doubling, a
    /// snapshot of a million movies held its old and new buffers at once, hundreds of megabytes.
    init(capacity: Int = 0) {
        (partSize, store, counting) = (.max, nil, false)
        bytes.reserveCapacity(capacity)
        write(SearchIndexSnapshot.header)
    }

    /// A writer that hands each part of `partSize` bytes (a multiple of eight) to `store` as it fills.
    init(partSize: Int, store: @escaping (ArraySlice<UInt8>) -> Void) {
        precondition(partSize > 0 && partSize % 8 == 0)
        (self.partSize, self.store, counting) = (partSize, store, false)
        write(SearchIndexSnapshot.header)
    }

    /// A writer that only counts the bytes, to know a snapshot's length before writing it.
    static func counter() -> SnapshotWriter { SnapshotWriter(counting: ()) }

    private init(counting: Void) {
        (partSize, store, self.counting) = (.max, nil, true)
        write(SearchIndexSnapshot.header)
    }

    /// The snapshot: what was written, and its checksum (a store is handed the last parts, and
    /// nothing is returned). The checksum is added in place and the writer emptied: a copy of a
    /// million movies' snapshot was 190 MB more at the importer's peak.
    mutating func finish() -> [UInt8] {
        bytes.withUnsafeBytes { checksum.add($0) }
        withUnsafeBytes(of: checksum.value.littleEndian) { bytes += $0 }
        if let store {
            var start = 0
            while start < bytes.count {
                store(bytes[start..<min(bytes.count, start + partSize)])
                start += partSize
            }
            bytes = []
            return []
        }
        defer { bytes = [] }
        return bytes
    }

    mutating func write<Element: BitwiseCopyable>(_ array: [Element]) {
        let length = UInt64(array.count * MemoryLayout<Element>.stride)
        withUnsafeBytes(of: length.littleEndian) { append($0) }
        // A store's buffer takes a part at a time, not a whole array of tens of megabytes.
        let step = store == nil ? Int.max : partSize
        array.withUnsafeBytes { raw in
            var start = 0
            while start < raw.count {
                append(UnsafeRawBufferPointer(rebasing: raw[start..<start + min(step, raw.count - start)]))
                start += min(step, raw.count - start)
            }
        }
    }

    private mutating func append(_ raw: UnsafeRawBufferPointer) {
        length += raw.count
        guard !counting else { return }
        bytes.append(contentsOf: raw)
        guard let store, bytes.count >= partSize else { return }
        var start = 0
        while bytes.count - start >= partSize {
            let part = bytes[start..<start + partSize]
            part.withUnsafeBytes { checksum.add($0) }
            store(part)
            start += partSize
        }
        bytes.removeFirst(start)
    }

    /// `writer`'s snapshot with `bytes` after its arrays, under a checksum that holds: for tests of
    /// a snapshot that is well formed but lies.
    static func finishing(_ writer: SnapshotWriter, appending bytes: [UInt8]) -> [UInt8] {
        var longer = writer
        longer.bytes += bytes
        return longer.finish()
    }

    mutating func write(_ strings: PackedStrings) {
        write(strings.bytes)
        write(strings.starts)
    }
}

/// Reads what a ``SnapshotWriter`` wrote, in the same order.
struct SnapshotReader {
    private let bytes: [UInt8]
    /// Where the arrays end and the checksum begins.
    private let end: Int
    private var position = 0

    init(_ snapshot: [UInt8]) throws(SearchIndexSnapshot.Unreadable) {
        guard snapshot.count >= 8 else { throw SearchIndexSnapshot.Unreadable(reason: "it ends early") }
        var stored: UInt64 = 0
        withUnsafeMutableBytes(of: &stored) { $0.copyBytes(from: snapshot[(snapshot.count - 8)...]) }
        guard SearchIndexSnapshot.checksum(snapshot.dropLast(8)) == UInt64(littleEndian: stored) else {
            throw SearchIndexSnapshot.Unreadable(reason: "its checksum does not match its bytes")
        }
        bytes = snapshot
        end = snapshot.count - 8
        let header: [UInt32] = try read()
        guard header == SearchIndexSnapshot.header else {
            throw SearchIndexSnapshot.Unreadable(reason: "written by another format or byte order")
        }
    }

    mutating func read<Element: BitwiseCopyable>() throws(SearchIndexSnapshot.Unreadable) -> [Element] {
        guard position + 8 <= end else { throw SearchIndexSnapshot.Unreadable(reason: "it ends early") }
        var length: UInt64 = 0
        withUnsafeMutableBytes(of: &length) { $0.copyBytes(from: bytes[position..<position + 8]) }
        position += 8
        let stride = MemoryLayout<Element>.stride
        guard let count = Int(exactly: UInt64(littleEndian: length)), count % stride == 0, count <= end - position else {
            throw SearchIndexSnapshot.Unreadable(reason: "an array's length does not fit")
        }
        let array = [Element](unsafeUninitializedCapacity: count / stride) { buffer, initialized in
            UnsafeMutableRawBufferPointer(buffer).copyBytes(from: bytes[position..<position + count])
            initialized = count / stride
        }
        position += count
        return array
    }

    mutating func readStrings() throws(SearchIndexSnapshot.Unreadable) -> PackedStrings {
        let bytes: [UInt8] = try read()
        let starts: [Int32] = try read()
        guard let first = starts.first, first == 0, starts.last.map({ Int($0) == bytes.count }) == true,
              zip(starts, starts.dropFirst()).allSatisfy({ $0 <= $1 }) else {
            throw SearchIndexSnapshot.Unreadable(reason: "its strings' bounds do not fit")
        }
        return PackedStrings(bytes: bytes, starts: starts)
    }

    /// Fails unless every byte was read.
    func finish() throws(SearchIndexSnapshot.Unreadable) {
        guard position == end else { throw SearchIndexSnapshot.Unreadable(reason: "it has bytes after its end") }
    }
}
