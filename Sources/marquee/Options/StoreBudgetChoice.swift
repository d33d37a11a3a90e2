import Foundation
import MovieStore
import TextFormatting

/// The store's budget this run: `MARQUEE_STORE_BUDGET`, else `store-budget` in the config file,
/// else ``StoreBudget/appDefault``; with where it was chosen, for `cache stats`.
enum StoreBudgetChoice {
    static func current(environment variables: [String: String] = ProcessInfo.processInfo.environment) throws -> (budget: StoreBudget, source: String) {
        if let text = variables["MARQUEE_STORE_BUDGET"], !text.isEmpty {
            return (try parse(text, from: "MARQUEE_STORE_BUDGET"), "MARQUEE_STORE_BUDGET")
        }
        let file = AppPaths.configFile(environment: variables)
        let contents: ConfigFile?
        do { contents = try ConfigFile.read(file) } catch { throw CLIError.failed(error.description) }
        if let text = contents?.storeBudget {
            return (try parse(text, from: "store-budget in \(file.path)"), file.path)
        }
        return (.appDefault, "the default")
    }

    /// The budget alone, for opening the store.
    static func budget() throws -> StoreBudget { try current().budget }

    private static func parse(_ text: String, from source: String) throws -> StoreBudget {
        do {
            return try StoreBudget(parsing: text)
        } catch {
            throw CLIError.failed("\(source): \(TerminalText.safe(error.description))")
        }
    }
}
