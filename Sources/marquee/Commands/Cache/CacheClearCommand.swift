import ArgumentParser
import Foundation
import MovieAPI
import MovieStore
import TextFormatting

/// `marquee cache clear`: delete one API's data, or the whole store (also a damaged one).
struct CacheClearCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear",
        abstract: "Delete what the store holds for the API --env names, or without --env the whole store (also a damaged one).",
        discussion: "Only a movie store is deleted: a folder, another program's database or any other file is refused and left as it is."
    )

    @OptionGroup var options: APIOptions

    func run() async throws {
        let url = options.storeURL
        let api = try options.selectionIfGiven()?.identity
        do {
            print(try await clear(url, api: api))
        } catch {
            throw CLIError.failed(ErrorReporter.describe(error))
        }
    }

    private func clear(_ url: URL, api: APIIdentity?) async throws(StoreError) -> String {
        let path = TerminalText.safe(url.path)
        guard let api else {
            return try StoreFile.removeStore(at: url) ? "Removed the movie store \(path)." : "No movie store at \(path); nothing to remove."
        }
        guard StoreFile.classify(url) != .missing else { return "No movie store at \(path); nothing to remove." }
        let removed = try await MovieStore(url: url).removeAPI(api.key)
        return removed ? "Removed what \(path) held for \(api)." : "\(path) holds nothing for \(api); nothing to remove."
    }
}
