import Foundation
import Testing

/// The README's module table is the package's: a row for every target under `Sources/`, and in
/// each row's imports every module of ours the target depends on in `Package.swift`, and no other.
@Suite("The README's module table")
struct ModuleTableTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Each target under `Sources/` with the targets of ours it depends on, read from `Package.swift`.
    static func targets() throws -> [String: Set<String>] {
        let modules = Set(try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Sources").path).filter { !$0.hasPrefix(".") })
        var manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        manifest = manifest.replacingOccurrences(of: #"\.product\([^)]*\)"#, with: "", options: .regularExpression)
        var found: [String: Set<String>] = [:]
        for declaration in manifest.components(separatedBy: ".target(").dropFirst() + manifest.components(separatedBy: ".executableTarget(").dropFirst() {
            let quoted = Self.quoted(in: String(declaration.prefix { $0 != ")" }))
            guard let name = quoted.first, modules.contains(name) else { continue }
            found[name] = Set(quoted.dropFirst()).intersection(modules)
        }
        #expect(Set(found.keys) == modules, "every folder of Sources/ is a target of Package.swift")
        return found
    }

    /// Each module the table names, with the modules of ours its imports column names.
    static func table() throws -> [String: Set<String>] {
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.components(separatedBy: "\n").drop { !$0.hasPrefix("| module |") }.dropFirst(2).prefix { $0.hasPrefix("|") }
        var rows: [String: Set<String>] = [:]
        for line in lines {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4 else { continue }
            let name = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            rows[name] = Set(cells[3].components(separatedBy: ", "))
        }
        return rows
    }

    private static func quoted(in text: String) -> [String] {
        text.components(separatedBy: "\"").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
    }

    @Test("a row for every target under Sources/, and none for a module that is not one")
    func everyTargetHasARow() throws {
        let targets = try Self.targets(), rows = try Self.table()
        #expect(Set(rows.keys) == Set(targets.keys), "missing: \(Set(targets.keys).subtracting(rows.keys).sorted()); not targets: \(Set(rows.keys).subtracting(targets.keys).sorted())")
    }

    @Test("each row's imports name exactly the targets of ours it depends on")
    func importsAreTheDependencies() throws {
        let targets = try Self.targets(), rows = try Self.table()
        for (name, dependencies) in targets {
            let named = (rows[name] ?? []).intersection(targets.keys)
            #expect(named == dependencies, "\(name): the table names \(named.sorted()), Package.swift \(dependencies.sorted())")
        }
    }

    @Test("no server target reaches the client's domain module: what both sides share is the contract's")
    func serverReachesNoClientModule() throws {
        let targets = try Self.targets()
        func reached(from name: String) -> Set<String> {
            var seen: Set<String> = [], queue = [name]
            while let next = queue.popLast() {
                for dependency in targets[next] ?? [] where seen.insert(dependency).inserted { queue.append(dependency) }
            }
            return seen
        }
        let servers = targets.keys.filter { $0.hasPrefix("MovieServer") }
        #expect(servers.count >= 5)
        for server in servers.sorted() {
            let client = reached(from: server).intersection(["Movies", "MovieAPI", "MovieStore", "MovieBrowser", "Networking"])
            #expect(client.isEmpty, "\(server) depends on \(client.sorted())")
        }
    }
}
