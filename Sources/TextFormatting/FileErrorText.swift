import Foundation

/// Why a file could not be read or written, in the system's few words ("no such file or
/// directory", "permission denied"), from the error Foundation threw: never Foundation's sentence
/// about it ("The file doesn't exist."), which names no cause on Linux and reads as a second
/// message glued into the first.
public enum FileErrorText {
    public static func reason(_ error: any Error) -> String {
        let error = error as NSError
        if error.domain == NSPOSIXErrorDomain { return posix(Int32(error.code)) }
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return posix(Int32(underlying.code))
        }
        guard error.domain == NSCocoaErrorDomain else { return "the system refused it (\(error.domain) \(error.code))" }
        switch CocoaError.Code(rawValue: error.code) {
        case .fileNoSuchFile, .fileReadNoSuchFile: return posix(ENOENT)
        case .fileReadNoPermission, .fileWriteNoPermission: return posix(EACCES)
        case .fileWriteOutOfSpace: return posix(ENOSPC)
        case .fileWriteVolumeReadOnly: return posix(EROFS)
        case .fileWriteFileExists: return posix(EEXIST)
        case .fileReadTooLarge: return "the file is too large to read"
        case .fileReadInvalidFileName, .fileWriteInvalidFileName: return "the name cannot be used for a file"
        case .fileReadCorruptFile: return "its contents cannot be read"
        default: return "the system refused it (error \(error.code))"
        }
    }

    private static func posix(_ code: Int32) -> String {
        let words = String(cString: strerror(code))
        guard let first = words.first else { return "error \(code)" }
        return first.lowercased() + words.dropFirst()
    }
}
