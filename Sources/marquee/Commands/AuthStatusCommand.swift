import ArgumentParser
import Foundation
import Movies
import TextFormatting

/// `marquee auth status`: whether the app holds a credential for an API, and until when. Never the token.
struct AuthStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Say whether a credential is stored for an API, and when it expires."
    )

    @OptionGroup var options: EnvironmentOption

    func run() async throws {
        let source = try options.resolved().1
        defer { print("The API is chosen by \(source).") }
        guard let context = try AuthCommand.storedContext(options) else { return }
        let api = context.environment.identity.description
        guard let credential = await context.credential() else {
            print("Not signed in to \(api).")
            return
        }
        print(Self.describe(credential, api: api, now: Date()))
    }

    static func describe(_ credential: Credential, api: String, now: Date) -> String {
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
