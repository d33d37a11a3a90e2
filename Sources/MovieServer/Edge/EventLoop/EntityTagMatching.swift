import Foundation

/// Reads an `If-None-Match` header (RFC 9110, 13.1.2): `*`, or a list of entity tags, compared
/// weakly (13.1.3), as that header requires: `W/"x"` matches `"x"`. A cache or proxy in front
/// of the server (nginx with `gzip on`) weakens the tags it passes on, and the client sends back
/// what it received, so a strong-only comparison would turn every revalidation into a full body.
enum EntityTagMatching {
    /// Whether `header` (all its field lines, comma-joined) names `entityTag` or is `*`.
    static func ifNoneMatch(_ header: String, matches entityTag: String) -> Bool {
        let wanted = opaque(entityTag)
        return header.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingCharacters(in: .whitespaces)
            return tag == "*" || opaque(tag) == wanted
        }
    }

    /// The tag without its weakness indicator.
    private static func opaque<S: StringProtocol>(_ tag: S) -> S.SubSequence {
        tag.hasPrefix("W/") ? tag.dropFirst(2) : tag[...]
    }
}
