import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the tests put their files: one folder per test process under the system's temporary
/// folder, removed when the process exits, and on the next run if a crash left it behind.
///
/// A run of the suite writes about 250 MB (stores, server databases of 100,000 movies, catalogues);
/// written straight into /tmp, every run added that much for good.
public enum TestFolders {
    /// This process's folder, made on first use.
    public static let temporary: URL = {
        let system = FileManager.default.temporaryDirectory
        removeFoldersOfEndedRuns(in: system)
        let folder = system.appendingPathComponent("\(prefix)\(getpid())", isDirectory: true)
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        atexit {
            try? FileManager.default.removeItem(at: TestFolders.temporary)
        }
        return folder
    }()

    private static let prefix = "marquee-tests-"

    /// The folders of test processes that no longer run.
    private static func removeFoldersOfEndedRuns(in system: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: system.path)) ?? []
        for name in names where name.hasPrefix(prefix) {
            guard let pid = pid_t(name.dropFirst(prefix.count)), pid != getpid() else { continue }
            if kill(pid, 0) != 0, errno == ESRCH {
                try? FileManager.default.removeItem(at: system.appendingPathComponent(name))
            }
        }
    }
}
