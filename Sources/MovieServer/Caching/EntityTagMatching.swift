import Foundation

/// Reads an `If-None-Match` header (RFC 9110, 13.1.2): `*`, or a list of entity tags.
///
/// The server issues strong tags only and compares strongly: a weak tag (`W/"…"`) never matches,
/// so a body is never withheld on the word of a validator it did not give.
enum EntityTagMatching {
    /// Whether `header` (all its field lines, comma-joined) names `entityTag` or is `*`.
    static func ifNoneMatch(_ header: String, matches entityTag: String) -> Bool {
        header.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingCharacters(in: .whitespaces)
            return tag == "*" || tag == entityTag
        }
    }
}
