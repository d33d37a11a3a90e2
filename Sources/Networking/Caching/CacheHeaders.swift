import Foundation
import HTTPTypes

/// What a response's `ETag` and `Cache-Control` say about keeping it (RFC 9111), read defensively:
/// a tag that is not a well-formed entity tag is ignored (it is sent back in a header later), and
/// a max-age is capped at a year.
public struct CacheHeaders: Sendable, Hashable {
    public var entityTag: String?
    public var maxAge: Duration?
    /// `Cache-Control: no-store`: the response must not be kept.
    public var noStore: Bool

    public static let maximumAge: Int64 = 31_536_000

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
            case "max-age" where parts.count == 2:
                let value = parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                if maxAge == nil, let seconds = Int64(value), seconds >= 0 {
                    maxAge = .seconds(min(seconds, Self.maximumAge))
                }
            default:
                continue
            }
        }
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
