import Foundation
import Logging
import MovieAPI
import MovieContract
import MovieStore
import Movies
import NIOConcurrencyHelpers
import TextFormatting

/// `--follow` for the shelf's kinds (`ratings`, `diary`, `list show`): after what was shown, one
/// line per change of them that the server's live feed brings, until the process is interrupted.
/// At each (re)connection the kinds' pending changes are sent and their records fetched again;
/// the feed's state goes to standard error, and a feed that stops for good ends the command.
/// The store's live cursor is left to the watchlist's follower: this one starts from now.
enum ShelfFollow {
    /// What one change says: its record before and after (nil: there was none, or it is removed).
    struct Change: Sendable {
        var record: ShelfLiveChange
        var before: String?
    }

    static func run(
        _ watchlist: AppWatchlist, kinds: [any ShelfKind.Type], json: Bool,
        describe: @escaping @Sendable (Change) async -> String?
    ) async throws {
        guard watchlist.home == .server, let shelf = watchlist.shelf, let feed = watchlist.feed else {
            throw CLIError.failed("--follow needs a server that keeps the shelf, and a person signed in to it ('marquee login')")
        }
        let names = Set(kinds.map { $0.name })
        var statusLines = FollowStatusLines(waiting: false)
        // What this process has seen of each record, by kind and key: several windows on one
        // store each say a change once, whichever of them keeps it in the store first.
        var seen: [String: [String: String]] = [:]
        for await item in feed.updates(after: nil) {
            switch item {
            case let .status(status):
                if case let .off(reason) = status { throw CLIError.failed("the live feed stopped: \(reason)") }
                if case let .signedOut(reason) = status { throw CLIError.failed(reason) }
                if let text = statusLines.line(for: status) { FileHandle.standardError.write(Data("marquee: \(TerminalText.safe(text))\n".utf8)) }
                if status == .live { seen = await resync(kinds, shelf, watchlist) }
            case .update(.reset):
                seen = await resync(kinds, shelf, watchlist)
            case let .update(.shelf(record, _)) where names.contains(record.kind):
                let before = seen[record.kind]?[record.key]
                guard before != record.value else { continue }
                seen[record.kind, default: [:]][record.key] = record.value
                do { try await watchlist.store.learnShelfChange(record, api: watchlist.api) } catch {
                    Logger(label: "marquee").warning("a change could not be kept on this machine: \(ErrorReporter.describe(error))")
                }
                let change = Change(record: record, before: before)
                // What `describe` passes over (another list's change) is not printed in JSON either.
                if let text = await describe(change) { line(json ? Self.json(change) : text) }
            case .update:
                break
            }
        }
    }

    /// Sends the kinds' pending changes, fetches their records, and returns what the store then
    /// knows of them.
    private static func resync(_ kinds: [any ShelfKind.Type], _ shelf: AppShelfSync, _ watchlist: AppWatchlist) async -> [String: [String: String]] {
        func open<Kind: ShelfKind>(_ kind: Kind.Type) async { _ = try? await shelf.sync(kind) }
        var known: [String: [String: String]] = [:]
        for kind in kinds {
            await open(kind)
            known[kind.name] = (try? await watchlist.store.knownShelfValues(kind: kind.name, api: watchlist.api)) ?? [:]
        }
        return known
    }

    /// `{"event": "changed", "kind", "key", "value", "changedAt", "removed"}`, one line.
    static func json(_ change: Change) -> String {
        var text = #"{"changedAt":"\#(WatchlistClock.string(change.record.changedAt))","event":"changed","key":"#
        ContractJSON.writeString(change.record.key, to: &text)
        text += #","kind":"#
        ContractJSON.writeString(change.record.kind, to: &text)
        text += #","removed":\#(change.record.value == nil),"value":\#(change.record.value ?? "null")}"#
        return text
    }

    private static func line(_ text: String) {
        print(text)
        fflush(nil)
    }
}
