import ArgumentParser
import Foundation
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
        let url = options.storeURL, path = TerminalText.safe(url.path)
        if let identity = try options.selectionIfGiven()?.identity {
            guard StoreFile.classify(url) != .missing else {
                print("No movie store at \(path); nothing to remove.")
                return
            }
            let removed = try await MovieStore(url: url).removeAPI(identity.key)
            print(removed ? "Removed what \(path) held for \(identity)." : "\(path) holds nothing for \(identity); nothing to remove.")
        } else {
            let removed = try MovieStore.removeFiles(at: url)
            print(removed ? "Removed the movie store \(path)." : "No movie store at \(path); nothing to remove.")
        }
    }
}
