import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads a pipe with `read(2)`, again when a signal interrupts it. Foundation's `FileHandle` on
/// Linux ends the process on `EINTR` (`availableData`) or gives up with a partial result
/// (`readToEnd()`), and a test process that starts children takes `SIGCHLD`s while it reads.
public enum DescriptorReading {
    /// The next bytes the descriptor gives, waiting for them; empty at the end of the stream.
    public static func chunk(_ descriptor: Int32, size: Int = 65_536) -> Data {
        var buffer = [UInt8](repeating: 0, count: size)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count >= 0 { return Data(buffer.prefix(count)) }
            if errno != EINTR { return Data() }
        }
    }

    /// Every byte until the end of the stream.
    public static func all(_ descriptor: Int32) -> Data {
        var data = Data()
        while true {
            let chunk = chunk(descriptor)
            if chunk.isEmpty { return data }
            data.append(chunk)
        }
    }
}
