import Foundation

/// The most the movie store may take on disk. When what it holds grows past the budget, the
/// movies and lists used least recently are removed (``MovieStore``'s eviction) until it fits
/// again; what a person has on a watchlist or pending, and what a screen shows, is never removed.
///
/// Written the ways people write sizes: a number of bytes (`52428800`), or a number with a unit,
/// in any case and with or without a space: `kB`, `MB`, `GB`, `TB` count in thousands
/// (`500MB` is 500,000,000 bytes); `KiB`, `MiB`, `GiB`, `TiB`, and `K`, `M`, `G`, `T` alone as in
/// `du -h` or nginx, in 1,024s (`1GiB`, `1G`). `unlimited` (or `none`) turns eviction off.
public struct StoreBudget: Sendable, Hashable, CustomStringConvertible {
    /// The budget in bytes; `nil` when it is unlimited.
    public let bytes: Int64?

    /// A budget of `bytes`.
    public init(bytes: Int64) {
        self.bytes = bytes
    }

    private init(unlimitedBytes: Int64?) {
        bytes = unlimitedBytes
    }

    /// No budget: nothing is ever evicted (the store of a library user who did not choose one).
    public static let unlimited = StoreBudget(unlimitedBytes: nil)

    /// The app's budget when none is chosen: 500 MB, which holds some 600,000 movies, more than
    /// anyone browses, searches or lists by hand, and a fraction of a percent of a laptop's disk.
    public static let appDefault = StoreBudget(bytes: 500_000_000)

    /// The smallest budget accepted: the store's tables and indexes themselves take some 200 KB.
    public static let minimumBytes: Int64 = 1_000_000

    /// The budget `text` writes, or an error that says what was wrong and what is accepted.
    public init(parsing text: String) throws(StoreBudgetError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if ["unlimited", "none"].contains(trimmed.lowercased()) {
            self = .unlimited
            return
        }
        let digits = trimmed.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        let unitText = trimmed.dropFirst(digits.count).trimmingCharacters(in: .whitespaces)
        guard !digits.isEmpty, let number = Double(digits), number.isFinite else { throw StoreBudgetError(text: text, reason: .notASize) }
        guard let unit = Self.units[unitText.lowercased()] else { throw StoreBudgetError(text: text, reason: .unknownUnit(unitText)) }
        let bytes = (number * Double(unit)).rounded(.down)
        guard bytes < Double(Int64.max) / 2 else { throw StoreBudgetError(text: text, reason: .tooLarge) }
        guard Int64(bytes) >= Self.minimumBytes else { throw StoreBudgetError(text: text, reason: .tooSmall) }
        self.init(bytes: Int64(bytes))
    }

    private static let units: [String: Int64] = {
        var units: [String: Int64] = ["": 1, "b": 1, "byte": 1, "bytes": 1]
        for (power, letter) in ["k", "m", "g", "t"].enumerated() {
            let decimal = Int64(pow(1000.0, Double(power + 1))), binary = Int64(1) << (10 * (power + 1))
            units[letter + "b"] = decimal
            units[letter + "ib"] = binary
            units[letter] = binary
        }
        return units
    }()

    /// `500 MB (500,000,000 bytes)`, `1 GiB (1,073,741,824 bytes)`, or `unlimited`.
    public var description: String {
        guard let bytes else { return "unlimited" }
        return "\(Self.approximate(bytes)) (\(Self.grouped(bytes)) bytes)"
    }

    /// `bytes` in the largest unit that keeps a whole number or one decimal: `47.6 MB`, `1 GiB`.
    public static func approximate(_ bytes: Int64) -> String {
        for (unit, size) in [("GiB", Int64(1) << 30), ("MiB", Int64(1) << 20)] where bytes % size == 0 && bytes >= size {
            return "\(bytes / size) \(unit)"
        }
        for (unit, size) in [("GB", 1e9), ("MB", 1e6), ("kB", 1e3)] where Double(bytes) >= size {
            let value = Double(bytes) / size
            let rounded = (value * 10).rounded() / 10
            return rounded == rounded.rounded() ? "\(Int(rounded)) \(unit)" : "\(rounded) \(unit)"
        }
        return "\(bytes) bytes"
    }

    private static func grouped(_ value: Int64) -> String {
        let digits = Array(String(value))
        return digits.enumerated().map { index, digit in
            index > 0 && (digits.count - index) % 3 == 0 ? ",\(digit)" : "\(digit)"
        }.joined()
    }
}

/// Why a budget could not be read: the text, and what is wrong with it.
public struct StoreBudgetError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Reason: Sendable, Hashable {
        case notASize
        case unknownUnit(String)
        case tooSmall
        case tooLarge
    }

    public var text: String
    public var reason: Reason

    public var description: String {
        let accepted = "write a number of bytes, or one with a unit (500MB, 1GiB, 2G), or 'unlimited'"
        return switch reason {
        case .notASize: "'\(text)' is not a store budget: \(accepted)"
        case let .unknownUnit(unit): "'\(text)' is not a store budget: '\(unit)' is not a unit; \(accepted)"
        case .tooSmall: "'\(text)' is too small a store budget: the least is 1 MB, which its tables alone nearly fill"
        case .tooLarge: "'\(text)' is too large a store budget: write 'unlimited' for no budget"
        }
    }
}
