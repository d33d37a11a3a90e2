import Foundation
import MarqueeTestSupport
import Testing

/// The chaos campaign's checker (`scripts/chaos.d/check.py`) on histories written by hand: one where
/// nothing went wrong passes, and one each with a lost change, a duplicate, a leak, a change that lost
/// to one its device had seen, and a device left behind fails, naming what it found.
@Suite("The chaos checker")
struct ChaosCheckerTests {
    @Test("a history where every change arrived once, in order, to its person alone passes, with the summary line")
    func cleanHistoryPasses() async throws {
        let outcome = try await check(ChaosHistory())
        #expect(outcome.status == 0, "\(outcome.standardOutput)\(outcome.standardError)")
        #expect(outcome.lastLine == "chaos: 11 operations, 1 faults, 3 devices, 1 windows: 0 lost, 0 duplicated, 0 leaked, 0 out of order, converged in 1.0 s (p99 1.0 s)")
    }

    @Test("a change a device accepted that never reached the server's journal is lost")
    func lostChange() async throws {
        var history = ChaosHistory()
        history.journal.removeAll { $0["id"] as? String == "c3" }
        try await expectViolation(1, "lost", in: history, naming: "never reached the server's journal")
    }

    @Test("an applied change the server's list does not show is lost")
    func overwrittenChange() async throws {
        var history = ChaosHistory()
        history.serverLists[1]["entries"] = [ChaosHistory.entry(2, note: "p1-d2-0")]
        try await expectViolation(2, "lost", in: history, naming: "the last applied to the movie, yet the server's list shows it note 'p1-d2-0'")
    }

    @Test("a note applied twice is a duplicate")
    func duplicatedChange() async throws {
        var history = ChaosHistory()
        history.feed.insert(ChaosHistory.event(1, owner: "account/b", movie: 2, note: "p1-d2-1"), at: 1)
        try await expectViolation(1, "duplicated", in: history, naming: "'p1-d2-1' was applied twice")
    }

    @Test("a window that prints one change twice is a duplicate")
    func windowPrintsTwice() async throws {
        var history = ChaosHistory()
        history.windowLines.append((4.0, history.windowLines[2].line))
        try await expectViolation(1, "duplicated", in: history, naming: "window d0-w1 printed the same change twice")
    }

    @Test("one person's note in another person's list is a leak")
    func leakedNote() async throws {
        var history = ChaosHistory()
        history.operations.append(ChaosHistory.operation(
            "d2", "p1", "list", began: 6, ended: 6.2,
            stdout: #"{"entries":[{"movieId":1,"note":"p0-d0-1"}],"keptOn":"server","pendingChanges":0}"#
        ))
        try await expectViolation(1, "leaked", in: history, naming: "d2's 'list' at t=6.00 s, of p1, shows 'p0-d0-1', a note of p0")
    }

    @Test("a change that lost to one its device had fetched is out of order, whatever the clocks")
    func changeLostToOneItsDeviceHadSeen() async throws {
        var history = ChaosHistory()
        history.makeD1sChangeLose()
        try await expectViolation(1, "out of order", in: history, naming: "d1's change c2 of movie 1 (note 'p0-d1-1', made at t=3.00 s) lost to d0's change c1")
    }

    @Test("the same change lost by a device that had not fetched it is not out of order")
    func concurrentChangeMayLose() async throws {
        var history = ChaosHistory()
        history.makeD1sChangeLose()
        history.operations.removeAll { $0["device"] as? String == "d1" && $0["op"] as? String == "sync" }
        let outcome = try await check(history)
        #expect(outcome.status == 0, "\(outcome.standardOutput)")
    }

    @Test("a change that lost to its own device's earlier change is out of order")
    func changeLostToItsOwnDevice() async throws {
        var history = ChaosHistory()
        history.operations.append(ChaosHistory.change("d1", "p0", id: "c4", movie: 1, note: "p0-d1-2", began: 5, ended: 5.2))
        history.journal.append(["sequence": 4, "owner": "account/a", "id": "c4", "movieId": 1, "outcome": "superseded"])
        try await expectViolation(1, "out of order", in: history, naming: "lost to the same device's earlier d1's change c2")
    }

    @Test("an online list that reached the server counts as seeing the changes in it; an offline one does not")
    func onlineListIsAFetch() async throws {
        var history = ChaosHistory()
        history.makeD1sChangeLose()
        let sync = try #require(history.operations.firstIndex { $0["device"] as? String == "d1" && $0["op"] as? String == "sync" })
        history.operations[sync]["op"] = "list"
        history.operations[sync]["args"] = ["watchlist", "--json"]
        try await expectViolation(1, "out of order", in: history, naming: "had fetched by its 'list'")
        history.operations[sync]["args"] = ["watchlist", "--json", "--offline"]
        #expect(try await check(history).status == 0, "an offline list fetched nothing")
    }

    @Test("a window whose lines do not add up to the server's list has not converged")
    func windowLeftBehind() async throws {
        var history = ChaosHistory()
        history.windowLines.append((9.0, ["event": "changed", "change": "removed", "movieId": 1, "note": "", "changedAt": "2026-11-27T10:00:04.000Z", "removed": true]))
        try await expectViolation(1, "not converged", in: history, naming: "window d0-w1 shows {}; the server's list is {1: 'p0-d1-1'}")
    }

    @Test("a device whose store keeps a change pending at the end has not converged")
    func deviceLeftBehind() async throws {
        var history = ChaosHistory()
        history.deviceFinals[1]["list"] = ChaosHistory.list([1: "p0-d1-1"], pending: 1)
        try await expectViolation(1, "not converged", in: history, naming: "d1's store shows")
    }

    private func expectViolation(_ count: Int, _ kind: String, in history: ChaosHistory, naming words: String) async throws {
        let outcome = try await check(history)
        #expect(outcome.status == 1, "\(outcome.standardOutput)\(outcome.standardError)")
        #expect(outcome.standardOutput.contains(words), "\(outcome.standardOutput)")
        let counted = switch kind {
        case "lost": ": \(count) lost,"
        case "not converged": ", \(count) not converged"
        default: ", \(count) \(kind),"
        }
        #expect(outcome.lastLine.contains(counted), "\(outcome.lastLine)")
    }

    private func check(_ history: ChaosHistory) async throws -> MarqueeProcess.Outcome {
        let file = TestFolders.temporary.appendingPathComponent("chaos-history-\(UUID().uuidString).jsonl")
        try history.lines().write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let script = repositoryRoot.appendingPathComponent("scripts/chaos.d/check.py")
        return try await MarqueeProcess.run(
            URL(fileURLWithPath: "/usr/bin/python3"), [script.path, file.path], environment: ProcessInfo.processInfo.environment, timeLimit: .seconds(60)
        )
    }
}

extension MarqueeProcess.Outcome {
    fileprivate var lastLine: String { standardOutput.split(separator: "\n").last.map(String.init) ?? "" }
}
