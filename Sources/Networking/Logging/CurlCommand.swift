import Foundation
import HTTPTypes

/// A request as a `curl` command a person can paste into a POSIX shell, with every credential
/// replaced by a shell variable: `"Authorization: Bearer ${MARQUEE_ACCESS_TOKEN}"`. Set the
/// variable (or replace the placeholder) and the command asks exactly what the client asked.
///
/// Credentials are the request's ``APIRequest/sensitiveHeaderNames`` and, in a form body, the
/// values of fields named like a secret, a token or a password.
public enum CurlCommand {
    public static let accessTokenPlaceholder = "MARQUEE_ACCESS_TOKEN"
    public static let clientCredentialsPlaceholder = "MARQUEE_CLIENT_CREDENTIALS"
    public static let clientSecretPlaceholder = "MARQUEE_CLIENT_SECRET"
    public static let refreshTokenPlaceholder = "MARQUEE_REFRESH_TOKEN"

    public static func make(for request: APIRequest) -> String {
        var words = ["curl"]
        switch request.method {
        case .get: break
        case .head: words.append("--head")
        default: words += ["--request", request.method.rawValue]
        }
        for field in request.headerFields {
            if request.sensitiveHeaderNames.contains(field.name) {
                words += ["--header", Word.text("\(field.name.rawName): ").then(credential(in: field.value)).quoted]
            } else {
                words += ["--header", Word.text("\(field.name.rawName): \(field.value)").quoted]
            }
        }
        if let body = request.body {
            let isForm = request.headerFields[.contentType]?.hasPrefix("application/x-www-form-urlencoded") == true
            let text = String(decoding: body, as: UTF8.self)
            words += ["--data-binary", (isForm ? form(text) : Word.text(text)).quoted]
        }
        words.append(Word.text(request.url.absoluteString).quoted)
        return words.joined(separator: " ")
    }

    /// `Bearer <token>` keeps its scheme; any other value is replaced whole.
    private static func credential(in value: String) -> Word {
        let parts = value.split(separator: " ", maxSplits: 1)
        if parts.count == 2, parts[0].lowercased() == "bearer" { return Word.text("\(parts[0]) ").then(.variable(accessTokenPlaceholder)) }
        if parts.count == 2, parts[0].lowercased() == "basic" { return Word.text("\(parts[0]) ").then(.variable(clientCredentialsPlaceholder)) }
        return .variable(accessTokenPlaceholder)
    }

    /// A form body with the value of every secret-like field replaced.
    private static func form(_ body: String) -> Word {
        var word = Word.text("")
        for (index, pair) in body.split(separator: "&", omittingEmptySubsequences: false).enumerated() {
            if index > 0 { word = word.then(.text("&")) }
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0]).removingPercentEncoding?.lowercased() ?? String(parts[0])
            let placeholder: String? =
                switch name {
                case "client_secret": clientSecretPlaceholder
                case "refresh_token": refreshTokenPlaceholder
                case _ where ["secret", "token", "password"].contains(where: name.contains): "MARQUEE_SECRET"
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
