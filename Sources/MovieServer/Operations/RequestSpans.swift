import Foundation

/// What a request's span leaves out: the values of the query parameters that carry a secret.
enum RequestSpans {
    /// Names whose values a span must not carry: the codes, tokens, passwords and keys of the
    /// sign-in flows (OAuth 2's among them) and of the page's forms.
    static let redactedParameters: Set<String> = [
        "code", "user_code", "device_code", "state", "code_verifier", "token", "access_token", "refresh_token", "id_token",
        "client_secret", "client_assertion", "assertion", "password", "csrf", "session", "api_key", "apikey", "key", "sig", "signature",
    ]

    /// Words that make any name that contains them secret (`new_password`, `id_token_hint`).
    static let redactedWords = ["password", "secret", "token"]

    /// `query` as a span carries it: every parameter whose name is secret (``isSecret(_:)``), at
    /// any place, any number of times, has its value replaced by `REDACTED`; the rest is kept as
    /// sent. Parameters are read as split by `&` or `;`, so a value no reader of `&` alone sees as
    /// a parameter is not let through either.
    static func redactedQuery(_ query: Substring) -> String {
        var redacted = ""
        redacted.reserveCapacity(query.utf8.count)
        var rest = query
        while true {
            let end = rest.firstIndex { $0 == "&" || $0 == ";" } ?? rest.endIndex
            let parameter = rest[..<end]
            let name = parameter.prefix { $0 != "=" }
            if isSecret(name) {
                redacted += name
                redacted += "=REDACTED"
            } else {
                redacted += parameter
            }
            guard end < rest.endIndex else { return redacted }
            redacted.append(rest[end])
            rest = rest[rest.index(after: end)...]
        }
    }

    /// Whether a parameter's name, as sent, names a secret: percent-decoded (as often as it was
    /// encoded), `+` read as a space, in any case, and without spaces around it, it is one of
    /// ``redactedParameters`` or contains one of ``redactedWords``.
    static func isSecret(_ sent: Substring) -> Bool {
        var name = String(sent).replacingOccurrences(of: "+", with: " ")
        for _ in 0..<4 {
            guard name.contains("%"), let decoded = name.removingPercentEncoding, decoded != name else { break }
            name = decoded
        }
        name = name.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        return redactedParameters.contains(name) || redactedWords.contains { name.contains($0) }
    }
}
