import Foundation

/// An IPv4 or IPv6 address as its bytes (4 or 16; an IPv4-mapped IPv6 address is its IPv4
/// address), read from the forms proxies and sockets write: `192.0.2.1`, `2001:db8::1`,
/// `[2001:db8::1]:443`, `192.0.2.1:80`.
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    public let bytes: [UInt8]

    public init?(_ text: some StringProtocol) {
        var text = String(text).trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("["), let end = text.firstIndex(of: "]") {
            text = String(text[text.index(after: text.startIndex)..<end])
        } else if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") {
            text = String(text[..<colon])
        }
        if let zone = text.firstIndex(of: "%") { text = String(text[..<zone]) }
        var v4 = in_addr(), v6 = in6_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
        } else if inet_pton(AF_INET6, text, &v6) == 1 {
            let all = withUnsafeBytes(of: &v6) { Array($0) }
            bytes = all.prefix(12) == Self.mappedPrefix[...] ? Array(all.suffix(4)) : all
        } else {
            return nil
        }
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private static let mappedPrefix: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF]

    public var isIPv6: Bool { bytes.count == 16 }

    /// The address with all but its first `bits` set to zero.
    public func masked(to bits: Int) -> IPAddress {
        IPAddress(bytes: bytes.enumerated().map { index, byte in
            let kept = min(8, max(0, bits - index * 8))
            return kept == 8 ? byte : byte & ~(UInt8(0xFF) >> kept)
        })
    }

    /// Who stands behind this address when counting what one party may do: an IPv4 address
    /// alone, an IPv6 address by its /64 (the least one network is given, so one party holds
    /// at least that many addresses).
    public var party: String {
        isIPv6 ? "\(masked(to: 64))/64" : description
    }

    public var description: String {
        var copy = bytes
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = isIPv6 ? AF_INET6 : AF_INET
        guard inet_ntop(family, &copy, &text, socklen_t(text.count)) != nil else { return "?" }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
