import Foundation
import MarqueeTestSupport
import Testing

/// The device flow end to end in a real browser: `marquee login` and the sign-in page in headless
/// Chromium, driven by Selenium (`scripts/browser/device-flow.py`): sign up and approve, a code
/// used twice, a denial, an expired code, and the login's polls at the server's interval. The
/// screenshots of the page at 320 and 1280 pixels are kept in `.build/browser-test-artefacts`.
@Suite("The sign-in page in a real browser")
struct BrowserSignInTests {
    @Test("sign up and approve, a used code, deny, an expired code, polls at the interval; screenshots at 320 and 1280 px")
    func deviceFlowInChromium() async throws {
        let root = repositoryRoot
        let python = root.appendingPathComponent(".build/browser-venv/bin/python")
        try #require(FileManager.default.isExecutableFile(atPath: python.path), "Selenium's environment is missing: run scripts/install-system-deps")
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver"), "chromium-driver is missing: run scripts/install-system-deps")
        let artefacts = root.appendingPathComponent(".build/browser-test-artefacts")
        try? FileManager.default.removeItem(at: artefacts)
        let script = root.appendingPathComponent("scripts/browser/device-flow.py").path
        let outcome = try await MarqueeProcess.run(
            python, [script, MarqueeProcess().executable.path, artefacts.path],
            environment: ProcessInfo.processInfo.environment, timeLimit: .seconds(300)
        )
        #expect(outcome.status == 0, "\(outcome.standardOutput)\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("all as expected"))
        for shot in ["sign-in-320.png", "sign-in-1280.png", "approve-320.png", "approve-1280.png"] {
            let size = (try? FileManager.default.attributesOfItem(atPath: artefacts.appendingPathComponent(shot).path)[.size] as? Int) ?? 0
            #expect(size > 2_000, "\(shot) kept")
        }
    }
}
