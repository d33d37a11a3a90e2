import Foundation

/// A small history of a chaos campaign, written as `scripts/chaos` writes one: two people, three
/// devices, a window; d0 notes movie 1, d1 fetches it by a sync and notes the movie again, d2 (the
/// other person) notes movie 2; an instance is killed; every device syncs once more. Nothing in it
/// is wrong: each test breaks one thing.
struct ChaosHistory {
    var operations: [[String: Any]] = [
        ChaosHistory.change("d0", "p0", id: "c1", movie: 1, note: "p0-d0-1", began: 1, ended: 1.2),
        ChaosHistory.change("d2", "p1", id: "c3", movie: 2, note: "p1-d2-1", began: 1, ended: 1.1),
        ChaosHistory.operation("d1", "p0", "sync", began: 2, ended: 2.3),
        ChaosHistory.change("d1", "p0", id: "c2", movie: 1, note: "p0-d1-1", began: 3, ended: 3.2),
        ["device": "d0", "person": "p0", "op": "window-open", "window": "d0-w1", "began": 0.4, "ended": 0.4, "exit": 0],
    ] + ["d0", "d1", "d2"].map { ChaosHistory.operation($0, $0 == "d2" ? "p1" : "p0", "final-sync", began: 10, ended: 11) }
        + ["d0", "d1", "d2"].map { ChaosHistory.operation($0, $0 == "d2" ? "p1" : "p0", "final-list", began: 11.1, ended: 11.2) }

    var windowLines: [(t: Double, line: [String: Any])] = [
        (0.5, ["entries": [[String: Any]](), "keptOn": "server", "pendingChanges": 0]),
        (1.3, ChaosHistory.changed(1, "added", note: "p0-d0-1", at: "2026-11-27T10:00:01.000Z")),
        (3.3, ChaosHistory.changed(1, "noteChanged", note: "p0-d1-1", at: "2026-11-27T10:00:03.000Z")),
    ]

    var deviceFinals: [[String: Any]] = [
        ["device": "d0", "person": "p0", "list": ChaosHistory.list([1: "p0-d1-1"])],
        ["device": "d1", "person": "p0", "list": ChaosHistory.list([1: "p0-d1-1"])],
        ["device": "d2", "person": "p1", "list": ChaosHistory.list([2: "p1-d2-1"])],
    ]

    var serverLists: [[String: Any]] = [
        ["person": "p0", "owner": "account/a", "entries": [ChaosHistory.entry(1, note: "p0-d1-1")]],
        ["person": "p1", "owner": "account/b", "entries": [ChaosHistory.entry(2, note: "p1-d2-1")]],
    ]

    var journal: [[String: Any]] = [
        ["sequence": 1, "owner": "account/a", "id": "c1", "movieId": 1, "outcome": "applied"],
        ["sequence": 2, "owner": "account/b", "id": "c3", "movieId": 2, "outcome": "applied"],
        ["sequence": 3, "owner": "account/a", "id": "c2", "movieId": 1, "outcome": "applied"],
    ]

    var feed: [[String: Any]] = [
        ChaosHistory.event(1, owner: "account/a", movie: 1, note: "p0-d0-1"),
        ChaosHistory.event(2, owner: "account/b", movie: 2, note: "p1-d2-1"),
        ChaosHistory.event(3, owner: "account/a", movie: 1, note: "p0-d1-1"),
    ]

    /// d1's change of movie 1 superseded by d0's, which it had fetched: the journal, the feed, the
    /// server's list, the window and p0's stores all say d0's note stands.
    mutating func makeD1sChangeLose() {
        journal[2]["outcome"] = "superseded"
        feed.removeLast()
        serverLists[0]["entries"] = [ChaosHistory.entry(1, note: "p0-d0-1")]
        windowLines.removeLast()
        deviceFinals = deviceFinals.map { final in
            var final = final
            if final["person"] as? String == "p0" { final["list"] = ChaosHistory.list([1: "p0-d0-1"]) }
            return final
        }
    }

    /// The history as JSON lines, in the order the campaign writes them.
    func lines() throws -> String {
        var records: [[String: Any]] = [["type": "world", "devices": ["d0": "p0", "d1": "p0", "d2": "p1"], "people": ["p0", "p1"], "movies": [1, 2], "t": 0]]
        records += operations.map { $0.merging(["type": "op", "t": $0["ended"] ?? 0]) { old, _ in old } }
        records += windowLines.map { ["type": "window-line", "window": "d0-w1", "device": "d0", "person": "p0", "line": $0.line, "t": $0.t] }
        records.append(["type": "fault", "fault": "kill-server", "instance": 0, "t": 5])
        records.append(["type": "faults-stopped", "t": 10])
        records += deviceFinals.map { $0.merging(["type": "device-final", "t": 11.2]) { old, _ in old } }
        records += serverLists.map { $0.merging(["type": "server-list", "t": 11.3]) { old, _ in old } }
        records.append(["type": "journal", "rows": journal, "t": 11.3])
        records.append(["type": "feed", "rows": feed, "t": 11.3])
        return try records.map { String(decoding: try JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]), as: UTF8.self) }
            .joined(separator: "\n") + "\n"
    }

    static func operation(_ device: String, _ person: String, _ name: String, began: Double, ended: Double, stdout: String = "") -> [String: Any] {
        ["device": device, "person": person, "op": name, "args": [String](), "began": began, "ended": ended, "exit": 0, "killed": false, "stdout": stdout, "stderr": ""]
    }

    static func change(_ device: String, _ person: String, id: String, movie: Int, note: String, began: Double, ended: Double) -> [String: Any] {
        let line = #"{"action":"add","changeId":"\#(id)","changed":true,"delivery":"sent","movieId":\#(movie),"note":"\#(note)"}"#
        return operation(device, person, "add", began: began, ended: ended, stdout: line + "\n")
    }

    static func changed(_ movie: Int, _ kind: String, note: String, at time: String) -> [String: Any] {
        ["event": "changed", "change": kind, "movieId": movie, "note": note, "changedAt": time, "removed": false]
    }

    static func list(_ notes: [Int: String], pending: Int = 0) -> [String: Any] {
        ["keptOn": "server", "pendingChanges": pending, "entries": notes.sorted { $0.key < $1.key }.map { ["movieId": $0.key, "note": $0.value] }]
    }

    static func entry(_ movie: Int, note: String) -> [String: Any] {
        ["movieId": movie, "note": note, "changedAt": 1_700_000_000_000, "device": "x", "removed": false]
    }

    static func event(_ sequence: Int, owner: String, movie: Int, note: String) -> [String: Any] {
        let data = #"{"movieId":\#(movie),"note":"\#(note)","changedAt":"2026-11-27T10:00:00.000Z","device":"x","removed":false}"#
        return ["sequence": sequence, "owner": owner, "kind": "watchlist", "data": data]
    }
}
