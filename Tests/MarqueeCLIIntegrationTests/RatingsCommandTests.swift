import Foundation
import MarqueeTestSupport
import MovieServer
import ServerTestSupport
import Testing

/// `marquee rate` and `marquee ratings` through the real binary against a real server: two
/// devices of one person, offline changes sent later, and bad input refused with one line.
@Suite("Ratings from the command line", .timeLimit(.minutes(3)))
struct RatingsCommandTests {
    static func object(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]) ?? [:]
    }

    @Test("a rating made on one device is on the other's list with its title; offline it is kept, shown pending, and sent by the next command; --clear removes it everywhere; --sort orders")
    func twoDevices() async throws {
        try await withMovieServer(auth: LoginFlow.auth(), storage: MemoryStorage(catalog: try Catalog.reference())) { server in
            let api = server.baseURL.absoluteString
            let laptop = try TemporaryConfigHome(), phone = try TemporaryConfigHome()
            #expect(try await LoginFlow.login(laptop.marquee, api: api, port: server.port, as: "alice").status == 0)
            #expect(try await LoginFlow.login(phone.marquee, api: api, port: server.port, as: "alice", signUp: false).status == 0)

            let rated = try await laptop.marquee.run(["rate", "6", "7", "--env", api])
            #expect(rated.status == 0, "\(rated.standardError)")
            #expect(rated.standardOutput.contains("Rated Deadpool (6) 7/10 (★★★½); sent to the server."), "\(rated.standardOutput)")
            #expect(try await laptop.marquee.run(["rate", "7", "10", "--env", api]).status == 0)

            let list = try await phone.marquee.run(["ratings", "--env", api])
            #expect(list.status == 0, "\(list.standardError)")
            #expect(list.standardOutput.contains("Deadpool (2016)") && list.standardOutput.contains("7/10"), "\(list.standardOutput)")
            #expect(list.standardOutput.contains("Zootopia (2016)") && list.standardOutput.contains("10/10 (★★★★★)"), "\(list.standardOutput)")

            let offline = try await phone.marquee.run(["rate", "8", "4", "--env", api, "--offline"])
            #expect(offline.status == 0, "\(offline.standardError)")
            #expect(offline.standardOutput.contains("pending"), "\(offline.standardOutput)")
            let shown = try await phone.marquee.run(["ratings", "--json", "--env", api, "--offline"])
            let document = Self.object(shown.standardOutput)
            #expect(document["pendingChanges"] as? Int == 1, "\(shown.standardOutput)")
            let pending = (document["ratings"] as? [[String: Any]])?.first { $0["movieId"] as? Int == 8 }
            #expect(pending?["pending"] as? Bool == true && pending?["score"] as? Int == 4)
            #expect(try await laptop.marquee.run(["ratings", "--env", api]).standardOutput.contains("Batman") == false, "not sent yet")

            let synced = try await phone.marquee.run(["sync", "--env", api])
            #expect(synced.standardOutput.contains("Synced ratings: sent 1 change; 3 ratings here."), "\(synced.standardOutput)\(synced.standardError)")
            let sorted = try await laptop.marquee.run(["ratings", "--sort", "score", "--json", "--env", api])
            let scores = ((Self.object(sorted.standardOutput)["ratings"] as? [[String: Any]]) ?? []).compactMap { $0["score"] as? Int }
            #expect(scores == [10, 7, 4], "the other device has the rating sync sent: \(sorted.standardOutput)")
            let page = try await laptop.marquee.run(["movie", "6", "--env", api])
            #expect(page.standardOutput.contains("  Yours     7/10 (★★★½)"), "\(page.standardOutput)")
            let pageJSON = try await laptop.marquee.run(["movie", "6", "--json", "--env", api])
            #expect(Self.object(pageJSON.standardOutput)["yourRating"] as? Int == 7, "\(pageJSON.standardOutput)")
            let byTitle = try await laptop.marquee.run(["ratings", "--sort", "title", "--json", "--env", api])
            let titles = ((Self.object(byTitle.standardOutput)["ratings"] as? [[String: Any]]) ?? []).compactMap { $0["title"] as? String }
            #expect(titles == ["Batman v Superman - Dawn of Justice", "Deadpool", "Zootopia"], "\(byTitle.standardOutput)")

            let cleared = try await phone.marquee.run(["rate", "6", "--clear", "--env", api])
            #expect(cleared.status == 0 && cleared.standardOutput.contains("Cleared the rating of Deadpool (6)"), "\(cleared.standardOutput)\(cleared.standardError)")
            let after = try await laptop.marquee.run(["ratings", "--json", "--env", api])
            let movies = ((Self.object(after.standardOutput)["ratings"] as? [[String: Any]]) ?? []).compactMap { $0["movieId"] as? Int }
            #expect(Set(movies) == [7, 8], "\(after.standardOutput)")
            let again = try await laptop.marquee.run(["rate", "6", "--clear", "--env", api])
            #expect(again.status == 0 && again.standardOutput.contains("has no rating here; nothing was changed"), "\(again.standardOutput)")
        }
    }

    @Test("bad input is one clear line and a non-zero exit, nothing stored: 0, 11, 7.5, 'ten', a score and --clear, neither, a movie the server lacks")
    func badInput() async throws {
        try await withMovieServer(auth: LoginFlow.auth(), storage: MemoryStorage(catalog: try Catalog.reference())) { server in
            let api = server.baseURL.absoluteString
            let here = try TemporaryConfigHome()
            #expect(try await LoginFlow.login(here.marquee, api: api, port: server.port, as: "alice").status == 0)
            for (arguments, words) in [
                (["rate", "6", "0"], "'0' is not a score: a score is a whole number from 1 to 10"),
                (["rate", "6", "11"], "'11' is not a score"),
                (["rate", "6", "7.5"], "'7.5' is not a score"),
                (["rate", "6", "ten"], "'ten' is not a score"),
                (["rate", "6", "7", "--clear"], "give a score or --clear, not both"),
                (["rate", "6"], "give a score from 1 to 10"),
                (["rate", "424242", "7"], "the server has no movie 424242: it was not rated, and nothing is pending"),
            ] {
                let run = try await here.marquee.run(arguments + ["--env", api])
                #expect(run.status != 0, "\(arguments)")
                let lines = run.standardError.split(separator: "\n").filter { !$0.isEmpty }
                #expect(lines.count == 1 && lines.first?.contains(words) == true, "\(arguments): \(run.standardError)")
            }
            let list = try await here.marquee.run(["ratings", "--json", "--env", api])
            #expect((Self.object(list.standardOutput)["ratings"] as? [Any])?.isEmpty == true, "\(list.standardOutput)")
            #expect(Self.object(list.standardOutput)["pendingChanges"] as? Int == 0)
        }
    }
}
