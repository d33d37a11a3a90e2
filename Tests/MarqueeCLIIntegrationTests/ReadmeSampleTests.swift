import Foundation
import MarqueeTestSupport
import MovieServer
import NetworkTestSupport
import Testing

/// The documentation's samples are what `marquee` prints: each block marked `<!-- sample -->` in
/// README.md, in the DocC articles (`Sources/<Module>/<Module>.docc/**/*.md`) and in `docs/*.md`
/// is run, in a fresh home (config and cache folders), and compared line by line.
///
/// In a sample, a line `$ marquee …` is a command, and the lines up to the next `$ ` are what it
/// prints: standard output, then standard error. `$ marquee serve &` starts the movie API (with
/// its defaults: tokens required) on a free port, which stands for `8080` in the commands and the
/// output; `$ kill %1` stops it, and the port stays closed. `$ marquee login …` is approved on the
/// sign-in page as the person `alice` would (signing up the first time), and its code reads
/// `BCDF-GHJK`. An age ("fetched 6 seconds ago", on a loaded machine) reads "fetched just now", as
/// it does when the sample runs at a person's pace; nothing else is normalised.
@Suite("README samples", .serialized)
struct ReadmeSampleTests {
    struct Sample: CustomTestStringConvertible, Sendable {
        /// The document's path from the package's root, e.g. `Sources/MovieStore/MovieStore.docc/OfflineFirst.md`.
        let file: String
        /// The line of the sample's first line (after the marker and the opening fence).
        let line: Int
        let text: [String]
        var location: String { "\(file):\(line)" }
        var testDescription: String { "\(location): \(text.first ?? "")" }
    }

    static let root = repositoryRoot

    static let readme = root.appendingPathComponent("README.md")

    /// Every document that may hold samples, as paths from the root, in a stable order: README.md,
    /// then each Markdown file of each DocC catalogue under Sources, then docs/.
    static func documents() throws -> [String] {
        let files = FileManager.default
        var found: [String] = []
        let sources = root.appendingPathComponent("Sources")
        for module in try files.contentsOfDirectory(atPath: sources.path).sorted() {
            let folder = sources.appendingPathComponent(module)
            for entry in (try? files.contentsOfDirectory(atPath: folder.path)) ?? [] where entry.hasSuffix(".docc") {
                let catalogue = folder.appendingPathComponent(entry)
                let inside = files.enumerator(atPath: catalogue.path)?.compactMap { $0 as? String } ?? []
                found += inside.filter { $0.hasSuffix(".md") }.map { "Sources/\(module)/\(entry)/\($0)" }.sorted()
            }
        }
        let docs = root.appendingPathComponent("docs")
        found += ((try? files.contentsOfDirectory(atPath: docs.path)) ?? []).filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
        return ["README.md"] + found
    }

    static func lines(of file: String) throws -> [String] {
        try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8).components(separatedBy: "\n")
    }

    /// The samples of one document, and how many sample markers it has (each must open a sample).
    static func samples(in file: String) throws -> (samples: [Sample], markers: Int) {
        let lines = try Self.lines(of: file)
        var samples: [Sample] = []
        var index = 0
        while index < lines.count {
            defer { index += 1 }
            guard lines[index] == "<!-- sample -->", index + 1 < lines.count, lines[index + 1].hasPrefix("```") else { continue }
            let start = index + 2
            guard let end = lines[start...].firstIndex(where: { $0 == "```" }) else { continue }
            samples.append(Sample(file: file, line: start + 1, text: Array(lines[start..<end])))
            index = end
        }
        return (samples, lines.filter { $0 == "<!-- sample -->" }.count)
    }

    static func samples() throws -> [Sample] {
        try documents().flatMap { try samples(in: $0).samples }
    }

    /// The block after `marker` (a line of its own, before the opening fence), in whichever
    /// document holds it: exactly one may.
    static func block(marked marker: String) throws -> (file: String, lines: [String]) {
        var found: [(String, [String])] = []
        for file in try documents() {
            let lines = try Self.lines(of: file)
            for index in lines.indices where lines[index] == marker && index + 1 < lines.count && lines[index + 1].hasPrefix("```") {
                guard let end = lines[(index + 2)...].firstIndex(of: "```") else { continue }
                found.append((file, Array(lines[(index + 2)..<end])))
            }
        }
        try #require(found.count == 1, "'\(marker)' should mark one block, not \(found.count): \(found.map(\.0))")
        return found[0]
    }

    @Test("there are samples to check, in the README and the articles, and every marker opens one")
    func samplesExist() throws {
        var total = 0
        for file in try Self.documents() {
            let (samples, markers) = try Self.samples(in: file)
            #expect(samples.count == markers, "\(file): \(markers) sample markers, \(samples.count) samples (a marker must be followed by a fenced block)")
            total += samples.count
        }
        #expect(total >= 6)
        #expect(try !Self.samples(in: "README.md").samples.isEmpty, "the README's tour shows checked output")
        #expect(try Self.documents().contains { $0.hasSuffix(".docc/OfflineFirst.md") }, "the DocC articles are found")
    }

    @Test("every sample of the README and the articles is what marquee prints", arguments: try samples())
    func sample(_ sample: Sample) async throws {
        let marquee = MarqueeProcess()
        var server: RunningServer?
        var address: AddressThatGoesAway?
        var port = 8080
        var signedUp = false
        defer { if let server { Task { try? await server.stop() } } }
        var steps: [(command: String, expected: [String])] = []
        for line in sample.text {
            if line.hasPrefix("$ ") {
                steps.append((String(line.dropFirst(2)), []))
            } else {
                try #require(!steps.isEmpty, "\(sample.location): output before any command")
                steps[steps.count - 1].expected.append(line)
            }
        }
        for (command, expected) in steps {
            switch command {
            case "marquee serve &":
                var auth = AuthConfiguration()
                auth.passwordHashCost = 4
                let started = try await MovieServer(configuration: MovieServer.Configuration(
                    host: "127.0.0.1", port: 0, storage: MemoryStorage(catalog: try Catalog.reference()), auth: auth
                )).start()
                server = started
                address = try await AddressThatGoesAway.start(to: started.port)
                port = address?.port ?? 0
            case "kill %1":
                try await server?.stop()
                server = nil
                try await address?.goAway()
            case _ where command.hasPrefix("marquee login"):
                let words = command.split(separator: " ").map { $0.replacingOccurrences(of: "8080", with: String(port)) }
                let login = try marquee.launch(Array(words.dropFirst()))
                var lines: [String] = []
                while lines.count < 3, let line = await login.nextOutputLine() { lines.append(line) }
                guard let code = lines.first?.firstMatch(of: /the code ([A-Z]{4}-[A-Z]{4})/)?.1 else {
                    _ = await login.signal(SIGTERM)
                    Issue.record("\(sample.location): marquee login printed no code: \(login.lastOutput)")
                    return
                }
                #expect(try await PageClient(port: port).decide(String(code), as: "alice", signUp: !signedUp).status == 200)
                signedUp = true
                while let line = await login.nextOutputLine() { lines.append(line) }
                _ = await login.waitForExit()
                let printed = lines.map {
                    $0.replacingOccurrences(of: ":\(port)", with: ":8080").replacingOccurrences(of: String(code), with: "BCDF-GHJK")
                }
                #expect(printed == expected, "\(sample.location): $ \(command)\n\(printed.joined(separator: "\n"))")
            default:
                let words = command.split(separator: " ").map { $0.replacingOccurrences(of: "8080", with: String(port)) }
                try #require(words.first == "marquee", "\(sample.location): '\(command)' is not a marquee command")
                let outcome = try await marquee.run(Array(words.dropFirst()))
                let printed = (outcome.standardOutput + outcome.standardError).replacingOccurrences(of: ":\(port)", with: ":8080")
                    .replacingOccurrences(of: #"fetched \d+ seconds ago"#, with: "fetched just now", options: .regularExpression)
                var lines = printed.components(separatedBy: "\n").map { $0.replacingOccurrences(of: #"\s+$"#, with: "", options: .regularExpression) }
                while lines.last == "" { lines.removeLast() }
                #expect(lines == expected, "\(sample.location): $ \(command)\n\(lines.joined(separator: "\n"))")
            }
        }
    }
}
