import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A loopback port on which nothing listens, and on which nothing else can listen while the
/// tests run: a socket is bound to it and never listens, so every connection is refused.
public func closedLoopbackPort() async throws -> Int {
    try PortHolder.bind(0)
}

/// Sockets bound on loopback and kept for the life of the test process.
enum PortHolder {
    struct BindFailure: Error, CustomStringConvertible {
        let port: Int
        let code: Int32
        var description: String { "cannot hold loopback port \(port): errno \(code)" }
    }

    /// Binds `port` (0: any free one) without listening. `sharing` joins a listener of this
    /// process that shares its port (SO_REUSEPORT), so the port is held before that listener closes.
    /// No SO_REUSEADDR: Linux lets a socket that has it listen on a port held by another that has
    /// it too, as long as that one does not listen.
    static func bind(_ port: Int, sharing: Bool = false) throws -> Int {
        let descriptor = socket(AF_INET, PortableSockets.stream, 0)
        if sharing {
            var on: Int32 = 1
            _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEPORT, &on, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { PortableSockets.bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard descriptor >= 0, bound == 0 else {
            let code = errno
            close(descriptor)
            throw BindFailure(port: port, code: code)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
