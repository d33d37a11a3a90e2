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

    /// Whether `authority` (a `Host`: `name`, `name:port`, `[v6]:port`) names this machine.
    public func contains(authority: String) -> Bool {
        var host = authority
        if host.hasPrefix("["), let end = host.firstIndex(of: "]") {
            host = String(host[host.index(after: host.startIndex)..<end])
        } else if host.filter({ $0 == ":" }).count == 1, let colon = host.firstIndex(of: ":") {
            host = String(host[..<colon])
        }
        if let address = IPAddress(host) { return addresses.contains(address) }
        let name = host.lowercased()
        return names.contains(name) || names.contains(name.hasSuffix(".") ? String(name.dropLast()) : name)
    }
}
