import Foundation
import HTTPTypes

/// A request as a `curl` command a person can paste into a POSIX shell, with every credential
/// replaced by a shell variable: `"Authorization: Bearer ${ACCESS_TOKEN}"`. Set the variable (or
/// replace the placeholder) and the command asks exactly what the client asked. The variables'
/// names are the app's to choose (``Placeholders``).
///
/// Credentials are the request's ``APIRequest/sensitiveHeaderNames`` and, in a form body, the
/// values of fields named like a secret, a token or a password.
public enum CurlCommand {
    /// The names of the shell variables that stand for credentials.
    public struct Placeholders: Sendable, Hashable {
        public var accessToken: String
        public var clientCredentials: String
        public var clientSecret: String
        public var refreshToken: String
        /// Any other form field named like a secret, a token or a password.
        public var otherSecret: String

        /// `ACCESS_TOKEN`, `CLIENT_CREDENTIALS`, `CLIENT_SECRET`, `REFRESH_TOKEN` and `SECRET`,
        /// each after `prefix` (`MARQUEE_ACCESS_TOKEN`).
        public init(prefix: String = "") {
            accessToken = prefix + "ACCESS_TOKEN"
            clientCredentials = prefix + "CLIENT_CREDENTIALS"
            clientSecret = prefix + "CLIENT_SECRET"
            refreshToken = prefix + "REFRESH_TOKEN"
            otherSecret = prefix + "SECRET"
        }
    }

    public static func make(for request: APIRequest, placeholders: Placeholders = Placeholders()) -> String {
        var words = ["curl"]
        switch request.method {
        case .get: break
        case .head: words.append("--head")
        default: words += ["--request", request.method.rawValue]
        }
        for field in request.headerFields {
            if request.sensitiveHeaderNames.contains(field.name) {
                words += ["--header", Word.text("\(field.name.rawName): ").then(credential(in: field.value, placeholders)).quoted]
            } else {
                words += ["--header", Word.text("\(field.name.rawName): \(field.value)").quoted]
            }
        }
        if let body = request.body {
            let isForm = request.headerFields[.contentType]?.hasPrefix("application/x-www-form-urlencoded") == true
            let text = String(decoding: body, as: UTF8.self)
            words += ["--data-binary", (isForm ? form(text, placeholders) : Word.text(text)).quoted]
        }
        words.append(Word.text(request.url.absoluteString).quoted)
        return words.joined(separator: " ")
    }

    /// `Bearer <token>` keeps its scheme; any other value is replaced whole.
    private static func credential(in value: String, _ placeholders: Placeholders) -> Word {
        let parts = value.split(separator: " ", maxSplits: 1)
        if parts.count == 2, parts[0].lowercased() == "bearer" { return Word.text("\(parts[0]) ").then(.variable(placeholders.accessToken)) }
        if parts.count == 2, parts[0].lowercased() == "basic" { return Word.text("\(parts[0]) ").then(.variable(placeholders.clientCredentials)) }
        return .variable(placeholders.accessToken)
    }

    /// A form body with the value of every secret-like field replaced.
    private static func form(_ body: String, _ placeholders: Placeholders) -> Word {
        var word = Word.text("")
        for (index, pair) in body.split(separator: "&", omittingEmptySubsequences: false).enumerated() {
            if index > 0 { word = word.then(.text("&")) }
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0]).removingPercentEncoding?.lowercased() ?? String(parts[0])
            let placeholder: String? =
                switch name {
                case "client_secret": placeholders.clientSecret
                case "refresh_token": placeholders.refreshToken
                case _ where ["secret", "token", "password"].contains(where: name.contains): placeholders.otherSecret
                default: nil
                }
            if let placeholder, parts.count == 2 {
                word = word.then(.text("\(parts[0])=")).then(.variable(placeholder))
            } else {
                word = word.then(.text(String(pair)))
            }
        }
        return word
    }

    /// One shell word made of literal text and variables.
    private indirect enum Word {
        case text(String)
        case variable(String)
        case pair(Word, Word)

        func then(_ next: Word) -> Word { .pair(self, next) }

        private var hasVariable: Bool {
            switch self {
            case .text: false
            case .variable: true
            case let .pair(first, second): first.hasVariable || second.hasVariable
            }
        }

        /// Single-quoted when it is all text; double-quoted, with `${NAME}` left to expand, when not.
        var quoted: String {
            hasVariable ? "\"" + doubleQuotedBody + "\"" : "'" + literal.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
        }

        private var literal: String {
            switch self {
            case let .text(text): text
            case let .variable(name): "${\(name)}"
            case let .pair(first, second): first.literal + second.literal
            }
        }

        private var doubleQuotedBody: String {
            switch self {
            case let .text(text):
                text.reduce(into: "") { escaped, character in
                    if "\\\"$`".contains(character) { escaped.append("\\") }
                    escaped.append(character)
                }
            case let .variable(name): "${\(name)}"
            case let .pair(first, second): first.doubleQuotedBody + second.doubleQuotedBody
            }
        }
    }
}
