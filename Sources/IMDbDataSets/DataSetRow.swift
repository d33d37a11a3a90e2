/// One line of a data set file, valid only during the call it is given to: its fields as text,
/// numbers or lists, `\N` read as missing, and refusals that name the file, the line and the
/// column.
public struct DataSetRow {
    public let file: String
    public let line: Int
    let bytes: UnsafeBufferPointer<UInt8>
    let fields: [Range<Int>]

    /// The field as it is written, `\N` included.
    func raw(_ index: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[fields[index]]), as: UTF8.self)
    }

    /// Whether the field is `\N`.
    public func isMissing(_ index: Int) -> Bool {
        let range = fields[index]
        return range.count == 2 && bytes[range.lowerBound] == 92 && bytes[range.lowerBound + 1] == 78
    }

    /// The field's text; nil for `\N`. Text that is not UTF-8 is refused.
    public func text(_ index: Int, _ column: String) throws(DataSetError) -> String? {
        guard !isMissing(index) else { return nil }
        let slice = UnsafeBufferPointer(rebasing: bytes[fields[index]])
        guard let text = String(validating: slice, as: UTF8.self) else { throw refusal(column, "is not UTF-8 text") }
        return text
    }

    /// The field as a whole number of at most 18 digits; nil for `\N`.
    public func integer(_ index: Int, _ column: String) throws(DataSetError) -> Int? {
        guard !isMissing(index) else { return nil }
        let range = fields[index]
        guard !range.isEmpty, range.count <= 18 else { throw refusal(column, "'\(excerpt(index))' is not a whole number") }
        var value = 0
        for position in range {
            let byte = bytes[position]
            guard (48...57).contains(byte) else { throw refusal(column, "'\(excerpt(index))' is not a whole number") }
            value = value * 10 + Int(byte - 48)
        }
        return value
    }

    /// The field as a decimal number (`7.5`); nil for `\N`.
    public func decimal(_ index: Int, _ column: String) throws(DataSetError) -> Double? {
        guard !isMissing(index) else { return nil }
        let text = raw(index)
        guard text.utf8.count <= 24, text.utf8.allSatisfy({ (48...57).contains($0) || $0 == 46 }), let value = Double(text), value.isFinite else {
            throw refusal(column, "'\(excerpt(index))' is not a decimal number")
        }
        return value
    }

    /// The number of an IMDb id of this prefix (`tt0111161` → 111161).
    public func identifier(_ index: Int, prefix: String, _ column: String) throws(DataSetError) -> Int {
        let text = raw(index)
        guard text.hasPrefix(prefix), let number = Int(text.dropFirst(prefix.count)), number > 0, text.count <= prefix.count + 12,
              text.dropFirst(prefix.count).allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw refusal(column, "'\(excerpt(index))' is not an IMDb id (\(prefix) and digits)")
        }
        return number
    }

    /// A refusal of this line's `column`.
    public func refusal(_ column: String, _ reason: String) -> DataSetError {
        .badLine(file: file, line: line, reason: "\(column) \(reason)")
    }

    private func excerpt(_ index: Int) -> String {
        let text = raw(index)
        return text.count > 40 ? String(text.prefix(40)) + "…" : text
    }
}
