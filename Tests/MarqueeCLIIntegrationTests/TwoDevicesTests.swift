import Foundation
import MarqueeTestSupport
import MovieServer
import ServerTestSupport
import Testing

/// One person, two devices (two config folders, each with its own store), against a real server:
/// the list a new device shows, its titles, and what `--follow` says of the other device's
/// changes, in one window and in two windows on one store.
@Suite("One person on two devices", .timeLimit(.minutes(3)))
struct TwoDevicesTests {
    static func object(_ line: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]) ?? [:]
    }

    @Test("a new device's first watchlist is the person's list with titles and years, online; offline it keeps them; --json names them")
    func newDeviceShowsTheListWithTitles() async throws {
        try await withMovieServer(auth: LoginFlow.auth(), storage: MemoryStorage(catalog: try Catalog.reference())) { server in
            let api = server.baseURL.absoluteString
            let laptop = try TemporaryConfigHome(), phone = try TemporaryConfigHome()
            #expect(try await LoginFlow.login(laptop.marquee, api: api, port: server.port, as: "alice").status == 0)
            #expect(try await LoginFlow.login(phone.marquee, api: api, port: server.port, as: "alice", signUp: false).status == 0)
            for (movie, note) in [(6, "Friday"), (7, "")] {
                let added = try await laptop.marquee.run(["watch", "add", String(movie)] + (note.isEmpty ? [] : ["--note", note]) + ["--env", api])
                #expect(added.status == 0, "\(added.standardError)")
            }

            let first = try await phone.marquee.run(["watchlist", "--env", api])
            #expect(first.status == 0, "\(first.standardError)")
            #expect(!first.standardOutput.contains("never synced") && !first.standardOutput.contains("empty"), "\(first.standardOutput)")
            #expect(first.standardOutput.contains("Deadpool (2016)") && first.standardOutput.contains("Zootopia (2016)"), "\(first.standardOutput)")
            #expect(first.standardOutput.contains("Friday"))

            let offline = try await phone.marquee.run(["watchlist", "--env", api, "--offline"])
            #expect(offline.standardOutput.contains("Deadpool (2016)") && offline.standardOutput.contains("Zootopia (2016)"), "\(offline.standardOutput)")
            let json = try await phone.marquee.run(["watchlist", "--json", "--env", api, "--offline"])
            let entries = (Self.object(json.standardOutput)["entries"] as? [[String: Any]]) ?? []
            #expect(Set(entries.compactMap { $0["title"] as? String }) == ["Deadpool", "Zootopia"], "\(json.standardOutput)")
            #expect(Set(entries.compactMap { $0["year"] as? Int }) == [2016])
        }
    }

    @Test("--follow on one device says what the other did, with titles: added, note changed, removed; and two windows on one store each say every change once")
    func followSaysWhatChanged() async throws {
        try await withMovieServer(auth: LoginFlow.auth(), storage: MemoryStorage(catalog: try Catalog.reference())) { server in
            let api = server.baseURL.absoluteString
            let laptop = try TemporaryConfigHome(), phone = try TemporaryConfigHome()
            #expect(try await LoginFlow.login(laptop.marquee, api: api, port: server.port, as: "alice").status == 0)
            #expect(try await LoginFlow.login(phone.marquee, api: api, port: server.port, as: "alice", signUp: false).status == 0)
            let windows = [
                try phone.marquee.launch(["watchlist", "--follow", "--env", api]),
                try phone.marquee.launch(["watchlist", "--follow", "--json", "--env", api]),
            ]
            for window in windows { #expect(await window.nextErrorLine(containing: "marquee: live") != nil) }

            let steps: [[String]] = [
                ["watch", "add", "6", "--note", "Friday"], ["watch", "add", "7"], ["watch", "add", "8"],
                ["watch", "add", "6", "--note", "Saturday"], ["watch", "remove", "7"], ["watch", "add", "9", "--note", "with popcorn"],
            ]
            for step in steps {
                let done = try await laptop.marquee.run(step + ["--env", api])
                #expect(done.status == 0, "\(step): \(done.standardError)")
            }
            var text: [String] = []
            while text.count < steps.count, let line = await windows[0].nextOutputLine(containing: ", id ") { text.append(line) }
            #expect(text == [
                "added Deadpool (2016), id 6, note \"Friday\"",
                "added Zootopia (2016), id 7",
                "added Batman v Superman - Dawn of Justice (2016), id 8",
                "note changed: Deadpool (2016), id 6, now \"Saturday\"",
                "removed Zootopia (2016), id 7",
                "added Suicide Squad (2016), id 9, note \"with popcorn\"",
            ], "\(windows[0].lastOutput)")
            var json: [[String: Any]] = []
            while json.count < steps.count, let line = await windows[1].nextOutputLine(containing: "\"changed\"") { json.append(Self.object(line)) }
            #expect(json.compactMap { $0["change"] as? String } == ["added", "added", "added", "noteChanged", "removed", "added"], "\(windows[1].lastOutput)")
            #expect(json.compactMap { $0["movieId"] as? Int } == [6, 7, 8, 6, 7, 9])
            #expect(json.first?["title"] as? String == "Deadpool" && json.first?["year"] as? Int == 2016)
            for window in windows { #expect(await window.signal(SIGINT) == SIGINT) }
        }
    }
}

extension TwoDevicesTests {
    @Test("--follow sends what was changed on its store meanwhile each time its stream opens again, unasked; signed out everywhere from the other device, it says so in one line and exits non-zero")
    func followHealsAndEnds() async throws {
        var auth = LoginFlow.auth()
        auth.accessTokenLifetime = .seconds(2)
        auth.clockSkewLeeway = 0
        var feed = FeedSettings()
        feed.heartbeat = .milliseconds(500)
        let storage = MemoryStorage(catalog: try Catalog.reference())
        try await withMovieServer(auth: auth, storage: storage, feed: feed) { server in
            let api = server.baseURL.absoluteString
            let laptop = try TemporaryConfigHome(), phone = try TemporaryConfigHome()
            #expect(try await LoginFlow.login(laptop.marquee, api: api, port: server.port, as: "alice").status == 0)
            #expect(try await LoginFlow.login(phone.marquee, api: api, port: server.port, as: "alice", signUp: false).status == 0)
            let window = try phone.marquee.launch(["watchlist", "--follow", "--env", api])
            #expect(await window.nextErrorLine(containing: "marquee: live") != nil)

            let offline = try await phone.marquee.run(["watch", "add", "9", "--note", "made offline", "--offline", "--env", api])
            #expect(offline.status == 0, "\(offline.standardError)")
            let sent = try await eventually(limit: .seconds(30)) {
                storage.watchlist(owner: storage.owner(ofAccount: "alice")).contains { $0.movieID == 9 }
            }
            #expect(sent, "the pending change went when the stream opened again, with no other command: \(window.lastOutput)")
            #expect(await window.nextOutputLine(containing: "id 9") != nil)

            let everywhere = try await laptop.marquee.run(["logout", "--everywhere", "--env", api])
            #expect(everywhere.status == 0, "\(everywhere.standardError)")
            let status = await window.waitForExit(within: .seconds(60))
            #expect(status == 1)
            let last = window.lastOutput.split(separator: "\n").last.map(String.init) ?? ""
            #expect(last.hasPrefix("marquee: signed out of \(api) as alice") && last.hasSuffix("to sign in again"), "\(window.lastOutput)")
            #expect(window.lastOutput.components(separatedBy: "signed out of").count == 2, "said once: \(window.lastOutput)")
            #expect(!window.lastOutput.contains("the list was fetched again"), "every refetch found the list as it was shown: \(window.lastOutput)")
        }
    }
}
