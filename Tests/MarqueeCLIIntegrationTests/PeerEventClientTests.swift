import Foundation
import MarqueeTestSupport
import Testing

/// The event feed read by a client that is not Marquee's: sseclient-py from PyPI
/// (`Tests/Fixtures/sse-peer.py`) against `marquee serve` on SQLite, with imports by another process and
/// a resume by `Last-Event-ID`.
@Suite("The event feed read by a peer's client")
struct PeerEventClientTests {
    @Test("sseclient-py reads ready and a catalogue event, and resumes after its cursor with the event it missed, none twice")
    func peerReadsAndResumes() async throws {
        let root = repositoryRoot
        let python = root.appendingPathComponent(".build/browser-venv/bin/python")
        try #require(FileManager.default.isExecutableFile(atPath: python.path), "the Python environment is missing: run scripts/install-system-deps")
        let outcome = try await MarqueeProcess.run(
            python, [root.appendingPathComponent("Tests/Fixtures/sse-peer.py").path, MarqueeProcess().executable.path],
            environment: ProcessInfo.processInfo.environment, timeLimit: .seconds(120)
        )
        #expect(outcome.status == 0, "\(outcome.standardOutput)\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("all as expected"))
    }
}
