#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A client that sends one GET and then never reads: a socket with a small receive buffer,
/// made with the system's own calls so that no event loop reads it behind the test's back.
public final class StalledReader: Sendable {
    private let descriptor: Int32

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public init(port: Int, path: String, token: String) throws {
        descriptor = socket(AF_INET, PortableSockets.stream, 0)
        guard descriptor >= 0 else { throw Failure(description: "socket() failed") }
        var small: Int32 = 4_096
        setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            Self.release(descriptor)
            throw Failure(description: "connect() to port \(port) failed")
        }
        let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n\r\n"
        let sent = request.utf8CString.withUnsafeBufferPointer { send(descriptor, $0.baseAddress, request.utf8.count, 0) }
        guard sent == request.utf8.count else {
            Self.release(descriptor)
            throw Failure(description: "send() failed")
        }
    }

    public func close() {
        Self.release(descriptor)
    }

    private static func release(_ descriptor: Int32) {
        #if canImport(Glibc)
        _ = Glibc.close(descriptor)
        #else
        _ = Darwin.close(descriptor)
        #endif
    }
}
