import Foundation

/// The user's settings file, `$XDG_CONFIG_HOME/marquee/config`: `key = value` lines, `#` comments
/// (a line of its own, or after a value and a space).
/// It holds `env`, with the values of `--env`, `account`, with those of `--account`, and
/// `store-budget`, the most the movie store may take on disk (`500MB`, `1GiB`).
struct ConfigFile: Equatable {
    var env: String?
    var account: String?
    var storeBudget: String?

    static let keys = ["env", "account", "store-budget"]

    /// The file's settings, or `nil` when there is no file.
    static func read(_ url: URL) throws(ConfigFileError) -> ConfigFile? {
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            if !FileManager.default.fileExists(atPath: url.path) { return nil }
            throw ConfigFileError(path: url.path, line: nil, reason: "it cannot be read as UTF-8 text")
        }
        return try parse(text, path: url.path)
    }

    static func parse(_ text: String, path: String) throws(ConfigFileError) -> ConfigFile {
        var file = ConfigFile()
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = withoutComment(rawLine).trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[1].isEmpty else {
                throw ConfigFileError(path: path, line: index + 1, reason: "expected 'key = value'")
            }
            switch parts[0] {
            case "env": file.env = parts[1]
            case "account": file.account = parts[1]
            case "store-budget": file.storeBudget = parts[1]
            default:
                throw ConfigFileError(path: path, line: index + 1, reason: "unknown setting '\(parts[0])'; the settings are \(keys.joined(separator: ", "))")
            }
        }
        return file
    }

    /// `line` up to a `#` that begins it or follows a space or a tab: `env = http://host/api/ #
    /// home` is the address alone, and a `#` within a value (`…/api/#x`) stays.
    private static func withoutComment(_ line: Substring) -> Substring {
        var previous: Character = " "
        for index in line.indices {
            if line[index] == "#", previous == " " || previous == "\t" { return line[..<index] }
            previous = line[index]
        }
        return line
    }
}

/// Why the config file cannot be used.
struct ConfigFileError: Error, CustomStringConvertible {
    let path: String
    let line: Int?
    let reason: String

    var description: String {
        "the config file \(path)\(line.map { " (line \($0))" } ?? "") cannot be used: \(reason)"
    }
}
