import Foundation
import HTTPTypes

/// What a response's `ETag` and `Cache-Control` say about keeping it (RFC 9111), read defensively:
/// a tag that is not a well-formed entity tag is ignored (it is sent back in a header later), a
/// max-age too large to represent is 2^31 seconds (RFC 9111, 1.2.2), and one that is not a
/// number of seconds means stale. How long an answer is then kept is the app's to bound.
public struct CacheHeaders: Sendable, Hashable {
    public var entityTag: String?
    public var maxAge: Duration?
    /// `Cache-Control: no-store`: the response must not be kept.
    public var noStore: Bool

    /// What a `max-age` greater than a cache can represent counts as (RFC 9111, 1.2.2).
    public static let maximumAge: Int64 = 2_147_483_648

    public init(entityTag: String? = nil, maxAge: Duration? = nil, noStore: Bool = false) {
        self.entityTag = entityTag
        self.maxAge = maxAge
        self.noStore = noStore
    }

    public init(_ fields: HTTPFields) {
        entityTag = fields[.eTag].flatMap(Self.wellFormedTag)
        noStore = false
        let directives = fields[values: .cacheControl].flatMap { $0.split(separator: ",") }
        for directive in directives {
            let parts = directive.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            switch parts[0].lowercased() {
            case "no-store":
                noStore = true
            case "no-cache":
                maxAge = .zero
            case "max-age":
                if maxAge == nil { maxAge = Self.age(parts.count == 2 ? parts[1] : "") }
            default:
                continue
            }
        }
    }

    /// A `max-age` value (RFC 9111, 1.2.2): digits are seconds, at most ``maximumAge`` however
    /// many there are; anything else (`-1`, `abc`, empty) is invalid, and an invalid freshness
    /// makes the response stale (4.2.1), never "no max-age".
    static func age(_ value: String) -> Duration {
        let digits = value.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        guard !digits.isEmpty, digits.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return .zero }
        return .seconds(min(Int64(digits) ?? maximumAge, maximumAge))
    }

    /// `"…"` or `W/"…"` of at most 256 visible ASCII characters, else `nil`.
    static func wellFormedTag(_ value: String) -> String? {
        let tag = value.trimmingCharacters(in: .whitespaces)
        let opaque = tag.hasPrefix("W/") ? tag.dropFirst(2) : Substring(tag)
        guard tag.utf8.count <= 256, opaque.count >= 2, opaque.first == "\"", opaque.last == "\"",
              opaque.dropFirst().dropLast().utf8.allSatisfy({ $0 == 0x21 || (0x23...0x7E).contains($0) })
        else { return nil }
        return tag
    }
}
