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
/// it does when the sample runs at a person's pace. `$ marquee serve --database movies.sqlite &`
/// starts the real `marquee serve` on a free port, on a SQLite file of the sample's own
/// (`movies.sqlite` in any command names it), and `$ kill %1` ends it; an import's time and rate
/// read `(0.1 s, 100 movies/s)`. Nothing else is normalised.
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

    /// The samples of one document, and how many sample markers it has (each must open a sample).
    static func samples(in file: String) throws -> (samples: [Sample], markers: Int) {
        let lines = try DocumentationSamples.lines(of: file)
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
        try DocumentationSamples.documents().flatMap { try samples(in: $0).samples }
    }

    @Test("there are samples to check, in the README and the articles, and every marker opens one")
    func samplesExist() throws {
        var total = 0
        for file in try DocumentationSamples.documents() {
            let (samples, markers) = try Self.samples(in: file)
            #expect(samples.count == markers, "\(file): \(markers) sample markers, \(samples.count) samples (a marker must be followed by a fenced block)")
            total += samples.count
        }
        #expect(total >= 6)
        #expect(try !Self.samples(in: "README.md").samples.isEmpty, "the README's tour shows checked output")
        #expect(try DocumentationSamples.documents().contains { $0.hasSuffix(".docc/OfflineFirst.md") }, "the DocC articles are found")
    }

    @Test("every sample of the README and the articles is what marquee prints", arguments: try samples())
    func sample(_ sample: Sample) async throws {
        let marquee = MarqueeProcess()
        var server: RunningServer?
        var serveProcess: ChildProcess?
        var address: AddressThatGoesAway?
        var port = 8080
        var signedUp = false
        let database = TestFolders.temporary.appendingPathComponent("sample-\(UUID().uuidString).sqlite").path
        defer {
            if let server { Task { try? await server.stop() } }
            if let serveProcess { Task { _ = await serveProcess.signal(SIGKILL) } }
        }
        /// The command's words, with the sample's port and database.
        func words(of command: String) -> [String] {
            command.split(separator: " ").map { $0 == "movies.sqlite" ? database : $0.replacingOccurrences(of: "8080", with: String(port)) }
        }
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
            case _ where command.hasPrefix("marquee serve --database") && command.hasSuffix(" &"):
                let started = try await marquee.serve(Array(words(of: String(command.dropLast(2))).dropFirst(2)) + ["--port", "0"])
                serveProcess = started.process
                port = started.port
            case "kill %1":
                try await server?.stop()
                server = nil
                try await address?.goAway()
                if let serveProcess { _ = await serveProcess.signal(SIGTERM) }
                serveProcess = nil
            case _ where command.hasPrefix("marquee login"):
                let login = try marquee.launch(Array(words(of: command).dropFirst()))
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
                let words = words(of: command)
                try #require(words.first == "marquee", "\(sample.location): '\(command)' is not a marquee command")
                let outcome = try await marquee.run(Array(words.dropFirst()))
                let printed = (outcome.standardOutput + outcome.standardError).replacingOccurrences(of: ":\(port)", with: ":8080")
                    .replacingOccurrences(of: database, with: "movies.sqlite")
                    .replacingOccurrences(of: #"fetched \d+ seconds ago"#, with: "fetched just now", options: .regularExpression)
                    .replacingOccurrences(of: #"\(\d+\.\d s, \d+ movies/s\)"#, with: "(0.1 s, 100 movies/s)", options: .regularExpression)
                var lines = printed.components(separatedBy: "\n").map { $0.replacingOccurrences(of: #"\s+$"#, with: "", options: .regularExpression) }
                while lines.last == "" { lines.removeLast() }
                #expect(lines == expected, "\(sample.location): $ \(command)\n\(lines.joined(separator: "\n"))")
            }
        }
    }
}
