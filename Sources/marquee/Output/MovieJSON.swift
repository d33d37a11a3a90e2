import Foundation
import Movies

/// The JSON form of domain values: pretty-printed, sorted keys, `yyyy-MM-dd` dates.
enum MovieJSON {
    static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(CalendarDate.string(from: date))
        }
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self) + "\n"
        } catch {
            throw CLIError.cannotWriteOutput(reason: "\(error)")
        }
    }
}
