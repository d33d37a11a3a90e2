import FileLocking
import Foundation
@testable import marquee
import MovieAPI
import MovieBrowser
import MovieStore
import Movies
import Networking
import Testing

/// Every case of every error that can reach a person, through the one formatter
/// (`ErrorReporter.describe`): one line of words, never a Swift value's description.
@Suite("Error words")
struct ErrorWordsTests {
    /// What gives a Swift value away: a case or type name glued to its payload, a module prefix,
    /// an argument label, an empty dictionary, `Optional(`.
    static func swiftMarkers(in text: String) -> [String] {
        let literal = ["Optional(", "MovieStore.", "Networking.", "MovieAPI.", "Movies.", "Swift.", "sentBefore:", "unknownMovies:", "[:]",
                       "NetworkError", "StoreError", "CacheFailure", "WatchlistSyncFailure", "WatchlistPushReport", "CLIError", "DeviceSignInError",
                       "CredentialsFileError", "Failure(", "Invalid("]
        var found = literal.filter { text.contains($0) }
        found += text.matches(of: #/[A-Za-z_]\(/#).map { String(text[$0.range]) }
        found += text.matches(of: #/[(,] ?[a-z]+[A-Z][A-Za-z]*: /#).map { String(text[$0.range]) }
        return found
    }

    static let path = "/home/ann/.cache/marquee/movies.sqlite"
    static let connect = NetworkError.cannotConnect(host: "127.0.0.1", port: 8080, reason: "Connection refused")

    static let networkErrors: [NetworkError] = [
        connect, .timedOut(after: .seconds(30)), .connectionLost("the peer closed the connection"), .status(code: 404, excerpt: "no movie 999999"),
        .status(code: 500, excerpt: ""), .cannotDecode(path: "$[3].releaseDate", reason: "not a date"), .bodyTooLarge(limit: 1_000_000), .cancelled,
        .invalidRoute("the base URL has no host"), .authenticationFailed("the server refused the credential"), .redirectRefused("too many redirects"),
    ]
    static let storeErrors: [StoreError] = [
        .damaged(path: path, reason: "file is not a database"), .notAStore(path: path, reason: "it has no movie tables"),
        .cannotOpen(path: path, reason: "Permission denied"), .newerVersion(path: path), .diskFull(path: path), .failed(path: path, reason: "disk I/O error"),
    ]
    static let cacheFailures: [CacheFailure<NetworkError>] = [.network(connect), .store(storeErrors[0]), .nothingStored(what: "the top rated movies of 2016"), .cancelled]
    static let syncFailures: [WatchlistSyncFailure<NetworkError>] = [
        .network(connect), .network(connect, sentBefore: .sent([.applied: 2, .superseded: 1], unknownMovies: [999_999])), .network(connect, sentBefore: .busy),
        .noWatchlist, .store(storeErrors[5]), .lock("another process has held the lock for more than 60 seconds"),
    ]
    static let cliErrors: [CLIError] = [
        .cannotServe(host: "0.0.0.0", port: 80, reason: "Permission denied"), .cannotStartEmbeddedServer(reason: "no free port"),
        .cannotWriteOutput(reason: "Broken pipe"), .noDatabase, .failed("nobody is signed in"),
    ]
    static let signInErrors: [DeviceSignInError] = [
        .notSupported(api: "production", status: 404), .denied, .expired, .refused("invalid_grant"), .untrustedPage("the page javascript:void is not an http address"), .network(connect),
    ]
    static let credentialErrors: [CredentialsFileError] = [
        .unreadable(path: path, reason: "Permission denied"), .corrupt(path: path, reason: "not JSON"), .cannotWrite(path: path, reason: "Read-only file system"),
        .cannotLock(.timedOut(path: path, seconds: 60)),
    ]
    static let lockFailures: [FileLock.Failure] = [.cannotOpen(path: path, reason: "Permission denied"), .timedOut(path: path, seconds: 60), .cancelled(path: path)]

    /// A type of no module's own, with a payload: what Swift would print as `thing(42)`.
    enum Stranger: Error { case thing(Int) }

    static var everyError: [any Error] {
        networkErrors as [any Error] + storeErrors + cacheFailures + syncFailures + cliErrors + signInErrors + credentialErrors + lockFailures + [
            ServerSentEventOverflow.lineTooLong(limit: 65_536), ServerSentEventOverflow.eventTooLarge(limit: 1_048_576),
            Terminal.Failure.notATerminal, Terminal.Failure.cannotConfigure("tcsetattr failed"),
            PasswordInput.Failure.noInput, PasswordInput.Failure.mismatch,
            Self.thrown { _ = try StoreBudget(parsing: "5 apples") }, Self.thrown { _ = try APIBaseURL("ftp://x") },
            SigningInWatchlist.SignInFailure(reason: "sign in to change the watchlist"), Stranger.thing(42),
        ]
    }

    /// The error `body` throws.
    static func thrown(_ body: () throws -> Void) -> any Error {
        do { try body() } catch { return error }
        return CLIError.failed("nothing was thrown")
    }

    @Test("each error reads as one line of words, with no Swift value in it")
    func wordsOnly() {
        for error in Self.everyError {
            let text = ErrorReporter.describe(error)
            #expect(!text.isEmpty)
            #expect(!text.contains("\n"), "\(text)")
            #expect(Self.swiftMarkers(in: text).isEmpty, "\(Self.swiftMarkers(in: text)) in: \(text)")
        }
    }

    @Test("the errors the command line once showed as values: a --follow sync failure, a stranger error")
    func reportedCases() {
        let follow = ErrorReporter.describe(WatchlistSyncFailure<NetworkError>.network(Self.connect) as any Error)
        #expect(follow == "cannot connect to 127.0.0.1:8080 (Connection refused); is the server running and the address right?")
        let partly = ErrorReporter.describe(WatchlistSyncFailure<NetworkError>.network(.timedOut(after: .seconds(5)), sentBefore: .sent([.applied: 2], unknownMovies: [])) as any Error)
        #expect(partly == "the server did not answer within 5 s; try again later, or allow longer with --timeout SECONDS (after 2 changes sent)")
        #expect(ErrorReporter.describe(Stranger.thing(42)).hasPrefix("an unexpected error stopped the command"))
    }

    @Test("the samples hold every case of each error enum")
    func everyCase() {
        #expect(Set(Self.networkErrors.map(Self.kind)).count == 10)
        #expect(Set(Self.storeErrors.map(Self.kind)).count == 6)
        #expect(Set(Self.cacheFailures.map(Self.kind)).count == 4)
        #expect(Set(Self.syncFailures.map(Self.kind)).count == 4)
        #expect(Set(Self.cliErrors.map(Self.kind)).count == 5)
        #expect(Set(Self.signInErrors.map(Self.kind)).count == 6)
        #expect(Set(Self.credentialErrors.map(Self.kind)).count == 4)
        #expect(Set(Self.lockFailures.map(Self.kind)).count == 3)
    }

    // Exhaustive switches: a new case stops these compiling until a sample of it is added above.
    static func kind(_ error: NetworkError) -> Int {
        switch error {
        case .cannotConnect: 0
        case .timedOut: 1
        case .connectionLost: 2
        case .status: 3
        case .cannotDecode: 4
        case .bodyTooLarge: 5
        case .cancelled: 6
        case .invalidRoute: 7
        case .authenticationFailed: 8
        case .redirectRefused: 9
        }
    }

    static func kind(_ error: StoreError) -> Int {
        switch error {
        case .damaged: 0
        case .notAStore: 1
        case .cannotOpen: 2
        case .newerVersion: 3
        case .diskFull: 4
        case .failed: 5
        }
    }

    static func kind(_ error: CacheFailure<NetworkError>) -> Int {
        switch error {
        case .network: 0
        case .store: 1
        case .nothingStored: 2
        case .cancelled: 3
        }
    }

    static func kind(_ error: WatchlistSyncFailure<NetworkError>) -> Int {
        switch error {
        case .network: 0
        case .noWatchlist: 1
        case .store: 2
        case .lock: 3
        }
    }

    static func kind(_ error: CLIError) -> Int {
        switch error {
        case .cannotServe: 0
        case .cannotStartEmbeddedServer: 1
        case .cannotWriteOutput: 2
        case .noDatabase: 3
        case .failed: 4
        }
    }

    static func kind(_ error: DeviceSignInError) -> Int {
        switch error {
        case .notSupported: 0
        case .denied: 1
        case .expired: 2
        case .refused: 3
        case .untrustedPage: 4
        case .network: 5
        }
    }

    static func kind(_ error: CredentialsFileError) -> Int {
        switch error {
        case .unreadable: 0
        case .corrupt: 1
        case .cannotWrite: 2
        case .cannotLock: 3
        }
    }

    static func kind(_ error: FileLock.Failure) -> Int {
        switch error {
        case .cannotOpen: 0
        case .timedOut: 1
        case .cancelled: 2
        }
    }
}
