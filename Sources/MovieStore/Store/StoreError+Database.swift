import Foundation
import GRDB
import TextFormatting

extension StoreError {
    /// What an error of GRDB or SQLite (or the file system) means for the store at `path`.
    init(_ error: any Error, path: String) {
        if let error = error as? StoreError {
            self = error
            return
        }
        guard let error = error as? DatabaseError else {
            self = .failed(path: path, reason: FileErrorText.reason(error))
            return
        }
        self = Self.meaning(of: error, path: path)
    }

    private static func meaning(of error: DatabaseError, path: String) -> StoreError {
        switch error.resultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT:
            return .damaged(path: path, reason: error.message ?? "not a database")
        case .SQLITE_FULL:
            return .diskFull(path: path)
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_READONLY, .SQLITE_AUTH:
            return .cannotOpen(path: path, reason: error.message ?? "\(error.resultCode)")
        default:
            if error.extendedResultCode == .SQLITE_IOERR_WRITE || error.message?.contains("disk I/O error") == true,
               isDiskFull(at: path) {
                return .diskFull(path: path)
            }
            return .failed(path: path, reason: error.message ?? "\(error.resultCode)")
        }
    }

    /// Whether the file system of `path` has no free block left for an unprivileged writer.
    private static func isDiskFull(at path: String) -> Bool {
        var status = statvfs()
        guard statvfs(URL(fileURLWithPath: path).deletingLastPathComponent().path, &status) == 0 else { return false }
        return status.f_bavail == 0
    }
}
