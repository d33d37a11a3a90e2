import Foundation
import MarqueeTestSupport
import MovieServer
import NetworkTestSupport
import Testing

/// The documents whose samples are run (the README, the DocC articles, `docs/`), read line by
/// line, and the block after a marker.
enum DocumentationSamples {
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
}
