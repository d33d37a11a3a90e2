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
        bytes.withUnsafeBytes { raw in
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325
            let words = raw.count / 8
            for word in 0..<words {
                hash = (hash ^ raw.loadUnaligned(fromByteOffset: word * 8, as: UInt64.self)) &* 0x0000_0100_0000_01B3
            }
            for byte in raw[(words * 8)...] { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            return hash
        }
    }

    /// The snapshot of the index of `entries`, made on the calling thread: an import stores it with
    /// the catalogue it wrote, so that servers read it instead of making it after the import.
    /// The entries are let go once the index is made, before its bytes are written: an importer
    /// of a million movies does not hold both.
    package static func make(from entries: consuming SearchEntries) -> [UInt8] {
        let index = MemorySearchIndex(entries: entries)
        return index.snapshot()
    }

    /// The parts a database keeps `snapshot` in.
    package static func parts(of snapshot: [UInt8]) -> [ArraySlice<UInt8>] {
        stride(from: 0, to: max(1, snapshot.count), by: partSize).map { snapshot[$0..<min(snapshot.count, $0 + partSize)] }
    }

    /// How large the parts a database keeps it in are: one row of a few megabytes at a time.
    package static let partSize = 8 << 20
}

/// Writes a snapshot's arrays one after the other, each after its length in bytes.
struct SnapshotWriter {
    private var bytes: [UInt8] = []

    /// The snapshot: what was written, and its checksum. The checksum is added in place and the
    /// writer emptied: a copy of a million movies' snapshot was 190 MB more at the importer's peak.
    mutating func finish() -> [UInt8] {
        let checksum = SearchIndexSnapshot.checksum(bytes[...]).littleEndian
        withUnsafeBytes(of: checksum) { bytes += $0 }
        defer { bytes = [] }
        return bytes
    }

    /// A writer whose buffer holds `capacity` bytes from the start: grown by doubling, a
    /// snapshot of a million movies held its old and new buffers at once, hundreds of megabytes.
    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
        write(SearchIndexSnapshot.header)
    }

    mutating func write<Element: BitwiseCopyable>(_ array: [Element]) {
        let length = UInt64(array.count * MemoryLayout<Element>.stride)
        withUnsafeBytes(of: length.littleEndian) { bytes += $0 }
        array.withUnsafeBytes { bytes += $0 }
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
