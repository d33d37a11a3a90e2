import ArgumentParser
import Foundation
import Logging
import MovieAPI
import MovieContract
import Movies
import TextFormatting

/// `marquee auth status`: who is signed in to an API (each person, through which client, until
/// when; the default marked), and whether the client holds a credential of its own. Never a token.
struct AuthStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Say who is signed in to an API, through which client, and until when."
    )

    @OptionGroup var options: EnvironmentOption

    func run() async throws {
        let source = try options.resolved().1
        defer { print("The API is chosen by \(source).") }
        guard let context = try AuthCommand.storedContext(options) else { return }
        let identity = context.environment.identity
        let api = identity.description
        var stored: [(holder: CredentialHolder, credential: Credential)] = []
        var defaultAccount: String?
        do {
            stored = try FileAPIContext.stored(in: context.fileURL, for: identity)
            defaultAccount = try context.defaultAccount()
        } catch {
            Logger(label: "marquee.auth").warning("\(error); nothing stored in it is shown")
        }
        let now = Date()
        let people = stored.filter { if case .person = $0.holder { true } else { false } }
        if people.isEmpty { print("Nobody is signed in to \(api); sign in with 'marquee login'.") }
        for (holder, credential) in people {
            guard case let .person(account) = holder else { continue }
            let marker = account == defaultAccount ? " (the default account)" : ""
            print(Self.describe(credential, api: api, now: now, who: "as \(TerminalText.safe(account))\(marker)"))
        }
        let ownKey = context.holder
        if let own = stored.first(where: { $0.holder == ownKey }) {
            print(Self.describe(own.credential, api: api, now: now, who: "as \(TerminalText.safe(own.holder.description))"))
        } else {
            print("The client \(ClientSecrets.fromEnvironment().id) holds no credential of its own for \(api).")
        }
    }

    static func describe(_ credential: Credential, api: String, now: Date, who: String = "") -> String {
        let api = who.isEmpty ? api : "\(api) \(who)"
        let renewal = credential.refreshToken == nil ? "it cannot be refreshed" : "it can be refreshed"
        if credential.expiresAt == .distantFuture {
            return "Signed in to \(api); the token does not expire."
        }
        let remaining = credential.expiresAt.timeIntervalSince(now)
        let when = CalendarDate.string(from: credential.expiresAt) + " " + Self.time(of: credential.expiresAt) + " UTC"
        return remaining > 0
            ? "Signed in to \(api); the access token expires in \(DurationText.span(remaining)) (\(when)); \(renewal)."
            : "Signed in to \(api); the access token expired \(DurationText.span(-remaining)) ago (\(when)); \(renewal) on the next request."
    }

    private static func time(of date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down)) % 86400
        let hours = seconds / 3600, minutes = seconds % 3600 / 60
        return (hours < 10 ? "0" : "") + "\(hours):" + (minutes < 10 ? "0" : "") + "\(minutes)"
    }
}
