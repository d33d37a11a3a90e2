import Foundation

/// Reads an `Authorization: Bearer <token>` header (RFC 6750, 2.1); the scheme in any case.
enum BearerAuthorization {
    static func token(in header: String) -> String? {
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return parts[1].trimmingCharacters(in: .whitespaces)
    }
}
