import Foundation
import MarqueeTestSupport
import MovieServer
import ServerTestSupport
import Testing

/// `--follow` for the shelf: what another device does arrives live, once, with titles.
@Suite("The shelf, live", .timeLimit(.minutes(3)))
struct ShelfFollowTests {
    @Test("ratings --follow, diary --follow and list show --follow on one device say what the other did: rated and cleared, logged and removed, added, moved and removed; another list's changes are not said")
    func followEachKind() async throws {
        try await withMovieServer(auth: LoginFlow.auth(), storage: MemoryStorage(catalog: try Catalog.reference())) { server in
            let api = server.baseURL.absoluteString
            let laptop = try TemporaryConfigHome(), phone = try TemporaryConfigHome()
            #expect(try await LoginFlow.login(laptop.marquee, api: api, port: server.port, as: "alice").status == 0)
            #expect(try await LoginFlow.login(phone.marquee, api: api, port: server.port, as: "alice", signUp: false).status == 0)
            for step in [["list", "create", "Noir"], ["list", "create", "Other"], ["list", "add", "Noir", "6"]] {
                #expect(try await laptop.marquee.run(step + ["--env", api]).status == 0)
            }
            let windows = [
                try phone.marquee.launch(["ratings", "--follow", "--env", api]),
                try phone.marquee.launch(["diary", "--follow", "--env", api]),
                try phone.marquee.launch(["list", "show", "Noir", "--follow", "--env", api]),
                try phone.marquee.launch(["list", "show", "Noir", "--follow", "--json", "--env", api]),
            ]
            for window in windows { #expect(await window.nextErrorLine(containing: "marquee: live") != nil) }

            for step in [
                ["rate", "6", "7"], ["rate", "6", "--clear"], ["watched", "7", "--on", "2021-03-04", "--rewatch"],
                ["list", "add", "Other", "8"], ["list", "add", "Noir", "7"], ["list", "move", "Noir", "7", "--to", "1"], ["list", "remove", "Noir", "6"],
            ] {
                let done = try await laptop.marquee.run(step + ["--env", api])
                #expect(done.status == 0, "\(step): \(done.standardError)")
            }
            var ratings: [String] = []
            while ratings.count < 2, let line = await windows[0].nextOutputLine(containing: ", id ") { ratings.append(line) }
            #expect(ratings == ["rated Deadpool (2016), id 6: 7/10 (★★★½)", "cleared the rating of Deadpool (2016), id 6"], "\(windows[0].lastOutput)")
            let diary = await windows[1].nextOutputLine(containing: ", id ")
            #expect(diary == "logged Zootopia (2016), id 7, watched 2021-03-04 (a rewatch)", "\(windows[1].lastOutput)")
            var list: [String] = []
            while list.count < 3, let line = await windows[2].nextOutputLine(containing: ", id ") { list.append(line) }
            #expect(list == ["added Zootopia (2016), id 7 at 2", "moved Zootopia (2016), id 7 to 1", "removed Deadpool (2016), id 6"], "\(windows[2].lastOutput)")
            var json: [String] = []
            while json.count < 3, let line = await windows[3].nextOutputLine(containing: "\"event\":\"changed\"") { json.append(line) }
            #expect(json.count == 3 && json.allSatisfy { !$0.contains("/8\"") }, "another list's change is not said: \(json)")
            for window in windows { #expect(await window.signal(SIGINT) == SIGINT) }
        }
    }
}
