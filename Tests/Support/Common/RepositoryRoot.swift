import Foundation

/// The repository's root folder, found from where this file sits in it (`Tests/Support/Common`):
/// what tests that read the README, the deploy samples or the scripts start from.
public let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
