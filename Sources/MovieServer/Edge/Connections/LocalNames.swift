import Foundation
import NIOCore

/// The names a server without a public URL answers for when it writes its own address into an
/// answer (the device flow's `verification_uri`, the RFC 8414 metadata): `localhost`, the
/// machine's host name, and the addresses of its interfaces. A `Host` naming anything else is
/// refused, so that a client cannot have the server hand another person a link to a site of the
/// client's choosing.
public struct LocalNames: Sendable {
    private let names: Set<String>
    private let addresses: Set<IPAddress>

    public init(names: Set<String>, addresses: Set<IPAddress>) {
        self.names = Set(names.map { $0.lowercased() })
        self.addresses = addresses
    }

    /// This machine's: `localhost`, its host name, its interfaces' addresses and the loopback ones.
    public static let machine: LocalNames = {
        var addresses: Set<IPAddress> = [IPAddress("127.0.0.1"), IPAddress("::1")].compactMap { $0 }.reduce(into: []) { $0.insert($1) }
        for device in (try? System.enumerateDevices()) ?? [] {
            if let text = device.address?.ipAddress, let address = IPAddress(text) { addresses.insert(address) }
        }
        return LocalNames(names: ["localhost", ProcessInfo.processInfo.hostName], addresses: addresses)
    }()

    /// Whether `authority` (a `Host`: `name`, `name:port`, `[v6]:port`) names this machine. A port
    /// is digits only and a name letters, digits, `.` and `-`, so an authority accepted here is a
    /// URL's host and port and nothing more (`localhost:1@evil.example` is refused).
    public func contains(authority: String) -> Bool {
        guard let host = Self.host(of: authority) else { return false }
        if let address = IPAddress(host) { return addresses.contains(address) }
        let name = host.lowercased()
        return names.contains(name.hasSuffix(".") ? String(name.dropLast()) : name)
    }

    /// The host of an authority of the forms above, or nil for anything else.
    static func host(of authority: String) -> String? {
        var host = Substring(authority), port: Substring?
        if host.hasPrefix("[") {
            guard let end = host.firstIndex(of: "]") else { return nil }
            let rest = host[host.index(after: end)...]
            host = host[host.index(after: host.startIndex)..<end]
            guard host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return nil }
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                port = rest.dropFirst()
            }
        } else {
            let parts = host.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count <= 2, let first = parts.first else { return nil }
            host = first
            port = parts.count == 2 ? parts[1] : nil
            guard host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }) else { return nil }
        }
        if let port { guard (1...5).contains(port.count), port.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil } }
        return host.isEmpty ? nil : String(host)
    }
}
