import CompressNIO
import Foundation
import NIOCore

/// One of IMDb's data set files, read a line at a time, gzip or not: tab-separated fields, `\N`
/// for a missing value, and a header line that must name the columns the layout documents. The
/// file is read in blocks and never held whole: the largest of them (the principals) is gigabytes
/// once inflated.
public struct DataSetFile: Sendable {
    public let url: URL
    /// The columns the header must name, in order.
    public let columns: [String]

    public init(url: URL, columns: [String]) {
        self.url = url
        self.columns = columns
    }

    /// The file's name, for messages.
    public var name: String { url.lastPathComponent }

    /// How many bytes are read from the file at a time.
    static let blockSize = 1 << 20

    /// Calls `body` with each line after the header, in order. A line not as the layout says, or
    /// that `body` refuses, goes to `badLine`, which stops the read by throwing or passes over it
    /// by returning. A damaged file, or one of another layout, stops it.
    public func forEachRow(
        _ body: (DataSetRow) throws(DataSetError) -> Void, badLine: (DataSetError) throws(DataSetError) -> Void
    ) throws(DataSetError) {
        let handle: FileHandle
        do { handle = try FileHandle(forReadingFrom: url) } catch {
            throw .unreadable(file: name, reason: "cannot be opened (\(Self.words(error)))")
        }
        defer { try? handle.close() }
        var inflater = try Inflater(file: name, gzip: url.pathExtension == "gz")
        var lines = LineSplitter(file: name, columns: columns)
        while true {
            let block: Data
            do { block = try handle.read(upToCount: Self.blockSize) ?? Data() } catch {
                throw .unreadable(file: name, reason: "cannot be read (\(Self.words(error)))")
            }
            if block.isEmpty { break }
            try inflater.inflate(block) { bytes throws(DataSetError) in try lines.take(bytes, body, badLine: badLine) }
        }
        try inflater.finish()
        try lines.finish(body, badLine: badLine)
    }

    /// Why a file could not be opened or read, in words (never a Swift value).
    static func words(_ error: any Error) -> String {
        switch (error as? CocoaError)?.code {
        case .fileReadNoSuchFile?, .fileNoSuchFile?: "no such file"
        case .fileReadNoPermission?: "permission denied"
        case .fileReadCorruptFile?: "the file is damaged"
        default: (error as NSError).localizedDescription
        }
    }
}

/// Inflates a gzip file's blocks as they come (or passes a plain file's through), and checks at
/// the end that the stream ended where the file did: a download cut short inflates without an
/// error until its bytes run out.
struct Inflater {
    let file: String
    private let decompressor: (any NIODecompressor)?
    private var output: ByteBuffer
    /// The last eight bytes read: a gzip member ends with its CRC and its length modulo 2³².
    private var tail: [UInt8] = []
    /// How many bytes the current member inflated to.
    private var inflated: UInt64 = 0

    init(file: String, gzip: Bool) throws(DataSetError) {
        self.file = file
        output = ByteBufferAllocator().buffer(capacity: DataSetFile.blockSize * 4)
        guard gzip else {
            decompressor = nil
            return
        }
        let decompressor = CompressionAlgorithm.gzip().decompressor
        do { try decompressor.startStream() } catch { throw .damaged(file: file, reason: "zlib could not start inflating it") }
        self.decompressor = decompressor
    }

    mutating func inflate(_ block: Data, _ deliver: (UnsafeBufferPointer<UInt8>) throws(DataSetError) -> Void) throws(DataSetError) {
        tail = Array((tail + block.suffix(8)).suffix(8))
        guard let decompressor else {
            let bytes = [UInt8](block)
            try bytes.withUnsafeBufferPointer { bytes throws(DataSetError) in try deliver(bytes) }
            return
        }
        var input = ByteBuffer(bytes: block)
        var stalled = false
        while input.readableBytes > 0 {
            output.clear()
            let before = input.readableBytes
            do {
                try decompressor.streamInflate(from: &input, to: &output)
            } catch let error as CompressNIOError where error == .bufferOverflow || error == .inputBufferOverflow {
                // The output is full, or the input is used up: both mean go on.
            } catch {
                throw .damaged(file: file, reason: "the gzip stream is damaged; download the file again")
            }
            inflated &+= UInt64(output.readableBytes)
            let progressed = output.readableBytes > 0 || input.readableBytes != before
            if progressed { stalled = false }
            if output.readableBytes > 0 {
                try output.withUnsafeReadableBytes { (raw: UnsafeRawBufferPointer) throws(DataSetError) in try deliver(raw.bindMemory(to: UInt8.self)) }
            } else if !progressed {
                // A member ended and another follows (gzip files may be concatenated).
                guard !stalled else { throw .damaged(file: file, reason: "bytes after the gzip stream are not gzip; download the file again") }
                stalled = true
                do { try decompressor.resetStream() } catch { throw .damaged(file: file, reason: "its next gzip member cannot be read; download the file again") }
                inflated = 0
            }
        }
    }

    /// Checks that the gzip stream ended with the file.
    func finish() throws(DataSetError) {
        guard decompressor != nil else { return }
        guard tail.count == 8 else { throw .damaged(file: file, reason: "too short to be a gzip file; download it again") }
        let length = UInt32(tail[4]) | UInt32(tail[5]) << 8 | UInt32(tail[6]) << 16 | UInt32(tail[7]) << 24
        guard UInt32(truncatingIfNeeded: inflated) == length else {
            throw .damaged(file: file, reason: "the gzip stream ends before the file does (cut short?); download it again")
        }
    }
}
