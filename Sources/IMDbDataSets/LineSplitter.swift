/// Cuts inflated bytes into lines, keeps the part of a line a block ends in, checks the header,
/// and hands each later line to the caller as a ``DataSetRow``.
struct LineSplitter {
    let file: String
    let columns: [String]
    private var partial: [UInt8] = []
    private var lineNumber = 0
    private var fields: [Range<Int>] = []

    init(file: String, columns: [String]) {
        self.file = file
        self.columns = columns
        fields.reserveCapacity(columns.count)
    }

    /// What is done with each row.
    typealias Row = (DataSetRow) throws(DataSetError) -> Void
    /// What is done with each line not as the layout says.
    typealias BadLine = (DataSetError) throws(DataSetError) -> Void

    mutating func take(_ bytes: UnsafeBufferPointer<UInt8>, _ body: Row, badLine: BadLine) throws(DataSetError) {
        var start = 0
        while let end = Self.newline(in: bytes, from: start) {
            if partial.isEmpty {
                try line(UnsafeBufferPointer(rebasing: bytes[start..<end]), body, badLine: badLine)
            } else {
                partial.append(contentsOf: bytes[start..<end])
                let whole = partial
                partial.removeAll(keepingCapacity: true)
                try whole.withUnsafeBufferPointer { line throws(DataSetError) in try self.line(line, body, badLine: badLine) }
            }
            start = end + 1
        }
        partial.append(contentsOf: bytes[start...])
        // No line of IMDb's files comes near this; a file without line ends is not one of them.
        guard partial.count <= 1 << 20 else { throw .badLine(file: file, line: lineNumber + 1, reason: "a line longer than 1 MB: not one of IMDb's data sets") }
    }

    /// The last line, when the file does not end with a line end; and a file with no header.
    mutating func finish(_ body: Row, badLine: BadLine) throws(DataSetError) {
        if !partial.isEmpty {
            let last = partial
            partial = []
            try last.withUnsafeBufferPointer { line throws(DataSetError) in try self.line(line, body, badLine: badLine) }
        }
        if lineNumber == 0 { throw .unknownLayout(file: file, expected: columns, found: "(an empty file)") }
    }

    private mutating func line(_ bytes: UnsafeBufferPointer<UInt8>, _ body: Row, badLine: BadLine) throws(DataSetError) {
        lineNumber += 1
        var line = bytes
        if line.last == 13 { line = UnsafeBufferPointer(rebasing: line.dropLast()) }
        // A file saved again by an editor may start with a byte order mark; IMDb's do not.
        if lineNumber == 1, line.starts(with: [0xEF, 0xBB, 0xBF]) { line = UnsafeBufferPointer(rebasing: line.dropFirst(3)) }
        fields.removeAll(keepingCapacity: true)
        var fieldStart = 0
        for index in line.indices where line[index] == 9 {
            fields.append(fieldStart..<index)
            fieldStart = index + 1
        }
        fields.append(fieldStart..<line.count)
        let row = DataSetRow(file: file, line: lineNumber, bytes: line, fields: fields)
        if lineNumber == 1 {
            let found = (0..<fields.count).map { row.raw($0) }
            guard found == columns else {
                throw .unknownLayout(file: file, expected: columns, found: String(found.joined(separator: "\t").prefix(200)))
            }
            return
        }
        guard fields.count == columns.count else {
            try badLine(.badLine(file: file, line: lineNumber, reason: "\(fields.count) fields, where the layout has \(columns.count) (\(columns.joined(separator: ", ")))"))
            return
        }
        do { try body(row) } catch {
            guard case .badLine = error else { throw error }
            try badLine(error)
        }
    }

    private static func newline(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var index = start
        while index < bytes.count {
            if bytes[index] == 10 { return index }
            index += 1
        }
        return nil
    }
}
