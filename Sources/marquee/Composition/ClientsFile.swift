import Foundation
import MovieServer

/// `marquee serve --clients FILE`: more client applications allowed to obtain tokens, one
/// `CLIENT-ID SECRET` a line (`#` starts a comment). Each client's token names its own watchlist.
/// The file holds secrets, so one that other users may read is refused.
enum ClientsFile {
    /// The file's clients; `main` is the one given by `--client-id` (or the environment), which the
    /// file may not name again; `nil` when that is the development pair, which is not admitted.
    static func read(_ path: String, besides main: ClientCredentials?) throws -> [ClientCredentials] {
        var status = stat()
        guard stat(path, &status) == 0 else { throw refusal(path, "it cannot be read (\(String(cString: strerror(errno))))") }
        guard status.st_mode & S_IFMT == S_IFREG else { throw refusal(path, "it is not a regular file") }
        let permissions = Int(status.st_mode & 0o777)
        guard permissions & 0o077 == 0 else {
            throw refusal(path, "other users may read it (mode \(String(permissions, radix: 8))); run 'chmod 600 \(path)'")
        }
        guard let data = FileManager.default.contents(atPath: path), data.count <= 1_000_000, let text = String(data: data, encoding: .utf8) else {
            throw refusal(path, "it is not a text file of clients")
        }
        let clients = try parse(text, source: path)
        if let main, clients.contains(where: { $0.id == main.id }) {
            throw refusal(path, "it names '\(main.id)', the client already given by --client-id or MARQUEE_CLIENT_ID")
        }
        return clients
    }

    static func parse(_ text: String, source: String) throws -> [ClientCredentials] {
        var clients: [ClientCredentials] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let content = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let fields = content.split(whereSeparator: \.isWhitespace)
            if fields.isEmpty { continue }
            guard fields.count == 2 else {
                throw refusal(source, "line \(number + 1) must be 'CLIENT-ID SECRET', two words")
            }
            let id = String(fields[0])
            guard id.utf8.count <= 100, id.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
                throw refusal(source, "line \(number + 1): a client id is 1 to 100 visible ASCII characters")
            }
            guard !clients.contains(where: { $0.id == id }) else { throw refusal(source, "line \(number + 1): the client id '\(id)' is listed twice") }
            guard id != ClientCredentials.development.id || fields[1] != ClientCredentials.development.secret else {
                throw refusal(source, "line \(number + 1): the development pair's secret is public; give '\(id)' a secret of its own")
            }
            clients.append(ClientCredentials(id: id, secret: String(fields[1])))
        }
        guard !clients.isEmpty else { throw refusal(source, "it names no client") }
        return clients
    }

    private static func refusal(_ path: String, _ reason: String) -> CLIError {
        .failed("the clients file \(path): \(reason)")
    }
}
