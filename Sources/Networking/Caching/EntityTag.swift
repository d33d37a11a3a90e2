import Foundation

/// Entity-tag comparison (RFC 9110, 8.8.3.2).
public enum EntityTag {
    /// Weak comparison: the opaque tags are equal, whether either is marked weak (`W/`) or not.
    /// It is the comparison `If-None-Match` and a `304`'s validator call for.
    public static func weaklyMatch(_ first: String, _ second: String) -> Bool {
        opaque(first) == opaque(second)
    }

    private static func opaque(_ tag: String) -> Substring {
        let trimmed = Substring(tag.trimmingCharacters(in: .whitespaces))
        return trimmed.hasPrefix("W/") ? trimmed.dropFirst(2) : trimmed
    }
}
