#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Gives the memory the allocator holds free back to the system. glibc keeps what a thread freed
/// in that thread's arena, so a build of hundreds of megabytes left the process that large.
/// Looked up at run time: `malloc_trim` is glibc's, not in its Swift module, and another C library
/// may not have it (then nothing is given back).
package enum FreedMemory {
    private typealias Trim = @convention(c) (Int) -> Int32

    private static let trim: Trim? = {
        #if canImport(Glibc)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: Trim.self)
        #else
        return nil
        #endif
    }()

    package static func returnToSystem() {
        _ = trim?(0)
    }
}
