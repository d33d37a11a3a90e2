import ArgumentParser
import Foundation
import MovieStore
import TextFormatting

/// `marquee cache stats`: what the store holds, API by API.
struct CacheStatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Show what the local movie store holds for each API (or for the one --env names)."
    )

    @OptionGroup var options: APIOptions

    func run() async throws {
        let url = options.storeURL
        let only = try options.selectionIfGiven()?.identity.key
        guard StoreFile.classify(url) != .missing else {
            print("No movie store at \(TerminalText.safe(url.path)) yet.")
            return
        }
        do {
            print(Self.render(try await MovieStore(url: url).statistics(), only: only, now: Date()))
        } catch {
            throw CLIError.failed(ErrorReporter.describe(error))
        }
    }

    static func render(_ statistics: StoreStatistics, only: String?, now: Date) -> String {
        let apis = statistics.apis.filter { only == nil || $0.key == only }
        var lines = [
            "Store     \(TerminalText.safe(statistics.path))",
            "Size      \(NumberText.grouped(Int(statistics.sizeInBytes))) bytes",
            "Movies    \(statistics.movies) in all APIs, with \(statistics.actors) actors (an actor is stored once, whichever APIs' casts name them)",
        ]
        if apis.isEmpty {
            lines.append(only.map { "Nothing is stored for \(TerminalText.safe($0))." } ?? "APIs      none")
        }
        for api in apis {
            lines.append("")
            lines.append("API       \(TerminalText.safe(api.key))")
            lines.append("  Movies  \(api.movies) (\(api.actors) actors)")
            if api.lists.isEmpty { lines.append("  Lists   none") }
            for (index, list) in api.lists.enumerated() {
                let age = DurationText.age(now.timeIntervalSince(list.fetchedAt))
                lines.append((index == 0 ? "  Lists   " : "          ") + "\(list.key): \(list.count) movies, fetched \(age)")
            }
        }
        return lines.joined(separator: "\n")
    }
}
