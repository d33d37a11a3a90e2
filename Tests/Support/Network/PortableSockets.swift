#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The socket calls the tests make, written once for Linux and Apple platforms (Glibc's socket
/// type is an enum, Darwin's a constant; `bind` is qualified because a type's own `bind` hides it).
public enum PortableSockets {
    public static var stream: Int32 {
        #if canImport(Glibc)
        Int32(SOCK_STREAM.rawValue)
        #else
        SOCK_STREAM
        #endif
    }

    public static func bind(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        #if canImport(Glibc)
        Glibc.bind(descriptor, address, length)
        #else
        Darwin.bind(descriptor, address, length)
        #endif
    }
}
