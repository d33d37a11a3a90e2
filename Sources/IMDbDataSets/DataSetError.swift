/// Why one of IMDb's data set files could not be read, in words an operator can act on: the file,
/// and the line and its column where a line is at fault.
public enum DataSetError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be opened or read.
    case unreadable(file: String, reason: String)
    /// The first line is not the header of the layout IMDb documents for this file.
    case unknownLayout(file: String, expected: [String], found: String)
    /// A line is not as the layout says.
    case badLine(file: String, line: Int, reason: String)
    /// The gzip stream is damaged, or ends before its end (a download cut short).
    case damaged(file: String, reason: String)

    public var description: String {
        switch self {
        case let .unreadable(file, reason):
            "\(file): \(reason)"
        case let .unknownLayout(file, expected, found):
            "\(file), line 1: not IMDb's layout for this file: the header should be '\(expected.joined(separator: "\\t"))', not '\(found)'"
        case let .badLine(file, line, reason):
            "\(file), line \(line): \(reason)"
        case let .damaged(file, reason):
            "\(file): \(reason)"
        }
    }
}
