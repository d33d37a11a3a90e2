import Foundation
import MarqueeTestSupport
import MovieServer
import Testing

/// The README's samples are what `marquee` prints: each block marked `<!-- sample -->` is run,
/// in a fresh home (config and cache folders), and compared line by line.
///
/// In a sample, a line `$ marquee …` is a command, and the lines up to the next `$ ` are what it
/// prints: standard output, then standard error. `$ marquee serve &` starts the movie API (with
/// its defaults: tokens required) on a free port, which stands for `8080` in the commands and the
/// output; `$ kill %1` stops it, and the port stays closed. An age ("fetched 6 seconds ago", on a
/// loaded machine) reads "fetched just now", as it does when the sample runs at a person's pace;
/// nothing else is normalised.
@Suite("README samples", .serialized)
struct ReadmeSampleTests {
    struct Sample: CustomTestStringConvertible, Sendable {
        let line: Int
        let text: [String]
        var testDescription: String { "README.md:\(line): \(text.first ?? "")" }
    }

    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("README.md")

    static func samples() throws -> [Sample] {
        let lines = try String(contentsOf: readme, encoding: .utf8).components(separatedBy: "\n")
        var samples: [Sample] = []
        var index = 0
        while index < lines.count {
            defer { index += 1 }
            guard lines[index] == "<!-- sample -->", index + 1 < lines.count, lines[index + 1].hasPrefix("```") else { continue }
            let start = index + 2
            guard let end = lines[start...].firstIndex(where: { $0 == "```" }) else { continue }
            samples.append(Sample(line: start + 1, text: Array(lines[start..<end])))
            index = end
        }
        return samples
    }

    @Test("there are samples to check")
    func samplesExist() throws {
        #expect(try Self.samples().count >= 4)
    }

    @Test("every README sample is what marquee prints", arguments: try samples())
    func sample(_ sample: Sample) async throws {
        let marquee = MarqueeProcess()
        var server: RunningServer?
        var address: AddressThatGoesAway?
        var port = 8080
        defer { if let server { Task { try? await server.stop() } } }
        var steps: [(command: String, expected: [String])] = []
        for line in sample.text {
            if line.hasPrefix("$ ") {
                steps.append((String(line.dropFirst(2)), []))
            } else {
                try #require(!steps.isEmpty, "README.md:\(sample.line): output before any command")
                steps[steps.count - 1].expected.append(line)
            }
        }
        for (command, expected) in steps {
            switch command {
            case "marquee serve &":
                let started = try await MovieServer(configuration: MovieServer.Configuration(
                    host: "127.0.0.1", port: 0, storage: MemoryStorage(catalog: try Catalog.reference())
                )).start()
                server = started
                address = try await AddressThatGoesAway.start(to: started.port)
                port = address?.port ?? 0
            case "kill %1":
                try await server?.stop()
                server = nil
                try await address?.goAway()
            default:
                let words = command.split(separator: " ").map { $0.replacingOccurrences(of: "8080", with: String(port)) }
                try #require(words.first == "marquee", "README.md:\(sample.line): '\(command)' is not a marquee command")
                let outcome = try await marquee.run(Array(words.dropFirst()))
                let printed = (outcome.standardOutput + outcome.standardError).replacingOccurrences(of: ":\(port)", with: ":8080")
                    .replacingOccurrences(of: #"fetched \d+ seconds ago"#, with: "fetched just now", options: .regularExpression)
                var lines = printed.components(separatedBy: "\n").map { $0.replacingOccurrences(of: #"\s+$"#, with: "", options: .regularExpression) }
                while lines.last == "" { lines.removeLast() }
                #expect(lines == expected, "README.md:\(sample.line): $ \(command)\n\(lines.joined(separator: "\n"))")
            }
        }
    }
}
