import Foundation
import MarqueeTestSupport
import MovieContract
import MovieServer
import ServerTestSupport
import Testing

/// `marquee watched` and `marquee diary` through the real binary against a real server.
@Suite("The diary from the command line", .timeLimit(.minutes(3)))
struct DiaryCommandTests {
    static func object(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]) ?? [:]
    }

    static func entries(_ text: String) -> [[String: Any]] {
        (object(text)["entries"] as? [[String: Any]]) ?? []
    }

    @Test("a viewing logged takes the movie off the watchlist and says so (--keep-on-watchlist keeps it); several per movie; newest first; --year; the other device sees them; remove by the start of an id")
    func logAndList() async throws {
        try await withMovieServer(auth: LoginFlow.auth(), storage: MemoryStorage(catalog: try Catalog.reference())) { server in
            let api = server.baseURL.absoluteString
            let laptop = try TemporaryConfigHome(), phone = try TemporaryConfigHome()
            #expect(try await LoginFlow.login(laptop.marquee, api: api, port: server.port, as: "alice").status == 0)
            #expect(try await LoginFlow.login(phone.marquee, api: api, port: server.port, as: "alice", signUp: false).status == 0)
            for movie in ["6", "7"] { #expect(try await laptop.marquee.run(["watch", "add", movie, "--env", api]).status == 0) }

            let logged = try await laptop.marquee.run(["watched", "6", "--env", api])
            #expect(logged.status == 0, "\(logged.standardError)")
            #expect(logged.standardOutput.contains("Logged Deadpool (6) in the diary, watched 20"), "\(logged.standardOutput)")
            #expect(logged.standardOutput.contains("; took it off the watchlist; sent to the server."), "\(logged.standardOutput)")
            let kept = try await laptop.marquee.run(["watched", "7", "--on", "2020-05-01", "--keep-on-watchlist", "--env", api])
            #expect(kept.standardOutput.contains("watched 2020-05-01; kept it on the watchlist"), "\(kept.standardOutput)")
            let again = try await laptop.marquee.run(["watched", "6", "--on", "2021-03-04", "--rewatch", "--note", "with Bob", "--env", api])
            #expect(again.status == 0 && again.standardOutput.contains("(a rewatch)"), "\(again.standardOutput)")
            #expect(!again.standardOutput.contains("watchlist"), "6 is no longer on it: \(again.standardOutput)")

            let watchlist = try await phone.marquee.run(["watchlist", "--json", "--env", api])
            let listed = ((Self.object(watchlist.standardOutput)["entries"] as? [[String: Any]]) ?? []).compactMap { $0["movieId"] as? Int }
            #expect(listed == [7], "\(watchlist.standardOutput)")

            let diary = try await phone.marquee.run(["diary", "--json", "--env", api])
            let days = Self.entries(diary.standardOutput).compactMap { $0["watchedOn"] as? String }
            #expect(days.count == 3 && days[1...] == ["2021-03-04", "2020-05-01"], "newest first: \(diary.standardOutput)")
            #expect(Self.entries(diary.standardOutput).first?["title"] as? String == "Deadpool")
            let table = try await phone.marquee.run(["diary", "--env", api])
            #expect(table.standardOutput.contains("Deadpool (2016)") && table.standardOutput.contains("(rewatch) with Bob"), "\(table.standardOutput)")
            let year = try await phone.marquee.run(["diary", "--year", "2020", "--json", "--env", api, "--offline"])
            #expect(Self.entries(year.standardOutput).compactMap { $0["movieId"] as? Int } == [7], "\(year.standardOutput)")

            let entry = try #require(Self.entries(diary.standardOutput).first { $0["watchedOn"] as? String == "2021-03-04" }?["entry"] as? String)
            let removed = try await phone.marquee.run(["diary", "remove", String(entry.prefix(8)), "--env", api])
            #expect(removed.status == 0, "\(removed.standardError)")
            #expect(removed.standardOutput.contains("Removed the viewing of Deadpool (6) on 2021-03-04 from the diary; sent to the server."), "\(removed.standardOutput)")
            let after = try await laptop.marquee.run(["diary", "--json", "--env", api])
            #expect(Self.entries(after.standardOutput).count == 2, "\(after.standardOutput)")
            let unknown = try await laptop.marquee.run(["diary", "remove", "zzzzzzzz", "--env", api])
            #expect(unknown.status != 0 && unknown.standardError.contains("no diary entry has an id starting 'zzzzzzzz'"), "\(unknown.standardError)")
        }
    }

    @Test("bad input is one clear line and a non-zero exit, nothing stored: a day in the future, before 1888, not a date, a note with a control character, a movie the server lacks")
    func badInput() async throws {
        try await withMovieServer(auth: LoginFlow.auth(), storage: MemoryStorage(catalog: try Catalog.reference())) { server in
            let api = server.baseURL.absoluteString
            let here = try TemporaryConfigHome()
            #expect(try await LoginFlow.login(here.marquee, api: api, port: server.port, as: "alice").status == 0)
            for (arguments, words) in [
                (["watched", "6", "--on", "2999-01-01"], "2999-01-01 is in the future"),
                (["watched", "6", "--on", "1887-12-31"], "1887-12-31 is before 1888-01-01"),
                (["watched", "6", "--on", "2020-02-30"], "'2020-02-30' is not a date: write it as YYYY-MM-DD"),
                (["watched", "6", "--on", "yesterday"], "'yesterday' is not a date"),
                (["watched", "6", "--note", "a\u{1B}[2Jb"], "a note cannot hold control characters"),
                (["watched", "424242"], "the server has no movie 424242: it was not logged, and nothing is pending"),
                (["diary", "--year", "1500"], "the year must be from 1888 to 9999"),
                (["diary", "remove", "ab"], "is not an entry id"),
            ] {
                let run = try await here.marquee.run(arguments + ["--env", api])
                #expect(run.status != 0, "\(arguments)")
                let lines = run.standardError.split(separator: "\n").filter { !$0.isEmpty }
                #expect(lines.count == 1 && lines.first?.contains(words) == true, "\(arguments): \(run.standardError)")
            }
            let diary = try await here.marquee.run(["diary", "--json", "--env", api])
            #expect(Self.entries(diary.standardOutput).isEmpty && Self.object(diary.standardOutput)["pendingChanges"] as? Int == 0, "\(diary.standardOutput)")
        }
    }
}

extension DiaryCommandTests {
    @Test("a new device's first diary of 6,000 entries reads every page (5,000 a request) and shows them all")
    func manyPages() async throws {
        let storage = MemoryStorage(catalog: try Catalog.reference())
        try await withMovieServer(auth: LoginFlow.auth(), storage: storage) { server in
            let api = server.baseURL.absoluteString
            let here = try TemporaryConfigHome()
            #expect(try await LoginFlow.login(here.marquee, api: api, port: server.port, as: "alice").status == 0)
            let owner = storage.owner(ofAccount: "alice")
            for part in 0..<12 {
                let changes = (0..<500).map { index in
                    ShelfChangeRecord(id: "c\(part)-\(index)", kind: Diary.name, key: "e\(part)-\(index)",
                                      value: #"{"movieId":6,"note":"","rewatch":false,"watchedOn":"2020-01-01"}"#, changedAt: 1_700_000_000_000, device: "d")
                }
                _ = storage.applyShelf(ShelfWrite(owner: owner, account: nil, kind: Diary.name, key: "p\(part)", body: Data([UInt8(part)]), changes: changes, movies: [:]), now: Date())
            }
            let diary = try await here.marquee.run(["diary", "--json", "--env", api])
            #expect(diary.status == 0, "\(diary.standardError)")
            #expect(Self.entries(diary.standardOutput).count == 6_000)
        }
    }
}
