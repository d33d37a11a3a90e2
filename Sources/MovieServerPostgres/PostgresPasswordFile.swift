import Foundation

/// A libpq password file (`~/.pgpass`, or the file `PGPASSFILE` names): lines of
/// `hostname:port:database:username:password`, where `*` matches anything and `\:` and `\\`
/// escape. As libpq does, the file is ignored when others may read it, and a connection through
/// a Unix socket matches the host name `localhost`.
struct PostgresPasswordFile {
    private struct Entry {
        let fields: [String]

        func matches(_ values: [String]) -> Bool {
            zip(fields, values).allSatisfy { $0 == "*" || $0 == $1 }
        }
    }

    private let entries: [Entry]

    /// The file that applies in `environment`, or `nil` when there is none or it may not be used.
    static func load(environment: [String: String]) -> PostgresPasswordFile? {
        let path = environment["PGPASSFILE"] ?? environment["HOME"].map { $0 + "/.pgpass" }
        guard let path else { return nil }
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_mode & 0o077 == 0,
              let text = try? String(contentsOfFile: path, encoding: .utf8)
        else { return nil }
        return PostgresPasswordFile(text: text)
    }

    init(text: String) {
        entries = text.split(whereSeparator: \.isNewline).compactMap { line in
            guard !line.hasPrefix("#") else { return nil }
            let fields = Self.fields(of: line)
            return fields.count == 5 ? Entry(fields: fields) : nil
        }
    }

    /// The password of the first line that matches, as libpq picks it.
    func password(host: String, port: Int, database: String, username: String) -> String? {
        let values = [host, String(port), database, username]
        return entries.first { $0.matches(values) }?.fields[4]
    }

    private static func fields(of line: Substring) -> [String] {
        var fields: [String] = [""]
        var escaped = false
        for character in line {
            if escaped {
                fields[fields.count - 1].append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == ":", fields.count < 5 {
                fields.append("")
            } else {
                fields[fields.count - 1].append(character)
            }
        }
        return fields
    }
}
