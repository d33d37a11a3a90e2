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
        let (budget, source) = try StoreBudgetChoice.current()
        do {
            print(Self.render(try await MovieStore(url: url, budget: budget).statistics(), only: only, now: Date(), budgetSource: source))
        } catch {
            throw CLIError.failed(ErrorReporter.describe(error))
        }
    }

    static func render(_ statistics: StoreStatistics, only: String?, now: Date, budgetSource: String = "the default") -> String {
        let apis = statistics.apis.filter { only == nil || $0.key == only }
        var lines = [
            "Store     \(TerminalText.safe(statistics.path))",
            "Size      \(NumberText.grouped(Int(statistics.sizeInBytes))) bytes on disk, \(NumberText.grouped(Int(statistics.usedBytes))) in use",
            "Budget    \(budgetLine(statistics, source: budgetSource))",
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

    /// `500 MB (500,000,000 bytes), 3% used (the default)`: least recently used movies are evicted past it.
    static func budgetLine(_ statistics: StoreStatistics, source: String) -> String {
        guard let bytes = statistics.budget.bytes else { return "unlimited (\(TerminalText.safe(source))): nothing is evicted" }
        let share = Double(statistics.usedBytes) / Double(bytes) * 100
        let used = share < 1 && statistics.usedBytes > 0 ? "under 1%" : "\(Int(share.rounded()))%"
        return "\(statistics.budget), \(used) used (\(TerminalText.safe(source))); past it the least recently used movies are evicted"
    }
}
