import Foundation

/// The proxies a server stands behind (`serve --trusted-proxy CIDR`) and the header they write
/// the client's address in. A request's client is its peer, unless the peer is a trusted proxy:
/// then the header is read from its right end, each trusted address skipped, and the first one
/// that is not trusted is the client. What a client writes in the header itself is to the left
/// of what the proxy appended, so it is never reached; the other forwarding header, which the
/// proxy passes on untouched, is never read.
public struct TrustedProxies: Sendable {
    /// The header the proxies write the client's address in.
    public enum Header: String, Sendable, CaseIterable {
        /// `X-Forwarded-For: client, proxy1` (nginx's `$proxy_add_x_forwarded_for`).
        case xForwardedFor = "x-forwarded-for"
        /// RFC 7239: `Forwarded: for=client, for="[2001:db8::1]:443"`.
        case forwarded
    }

    /// One trusted range: an address and how many of its leading bits must match.
    public struct Range: Sendable, Hashable {
        public let network: IPAddress
        public let bits: Int

        /// Reads `192.0.2.0/24`, `2001:db8::/32` or a single address.
        public init(parsing text: String) throws(TrustedProxyError) {
            let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            guard let address = IPAddress(parts[0]) else { throw .notAnAddress(text) }
            let width = address.bytes.count * 8
            let bits = parts.count == 2 ? Int(parts[1]) : width
            guard let bits, (0...width).contains(bits) else { throw .badPrefix(text, width: width) }
            network = address.masked(to: bits)
            self.bits = bits
        }

        func contains(_ address: IPAddress) -> Bool {
            address.bytes.count == network.bytes.count && address.masked(to: bits) == network
        }
    }

    public let ranges: [Range]
    public let header: Header

    public init(_ ranges: [Range] = [], header: Header = .xForwardedFor) {
        self.ranges = ranges
        self.header = header
    }

    /// None: every request's client is its peer.
    public static let none = TrustedProxies()

    public var isEmpty: Bool { ranges.isEmpty }

    public func trusts(_ address: IPAddress) -> Bool {
        ranges.contains { $0.contains(address) }
    }

    /// The client of a request that came from `peer`, whose forwarding header lines (the
    /// configured header's, in order) are `lines`; nil when the peer is not an IP address (a
    /// Unix socket).
    public func client(peer: IPAddress?, headerLines lines: [String]) -> IPAddress? {
        guard var client = peer, trusts(client) else { return peer }
        for hop in hops(lines).reversed() {
            guard let address = hop else { return client }
            client = address
            if !trusts(address) { return address }
        }
        return client
    }

    /// The addresses the header lists, left to right; nil for an entry that names none (`unknown`,
    /// an obfuscated id, garbage).
    private func hops(_ lines: [String]) -> [IPAddress?] {
        let entries = lines.flatMap { $0.split(separator: ",") }
        switch header {
        case .xForwardedFor:
            return entries.map { IPAddress($0) }
        case .forwarded:
            return entries.map { element in
                let pairs = element.split(separator: ";").map { $0.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) } }
                guard let value = pairs.first(where: { $0.count == 2 && $0[0].lowercased() == "for" })?[1] else { return nil }
                return IPAddress(value.trimmingCharacters(in: CharacterSet(charactersIn: "\"")))
            }
        }
    }
}

/// Why a trusted proxy range could not be read.
public enum TrustedProxyError: Error, Sendable, Equatable, CustomStringConvertible {
    case notAnAddress(String)
    case badPrefix(String, width: Int)

    public var description: String {
        switch self {
        case let .notAnAddress(text): "'\(text)' is not an IP address or range (write 10.0.0.0/8, 192.0.2.7 or 2001:db8::/32)"
        case let .badPrefix(text, width): "'\(text)' has a prefix length that is not 0 to \(width)"
        }
    }
}
