import Foundation
import MarqueeTestSupport
import MovieServer
import ServerTestSupport
import Testing

/// `marquee lists` and `marquee list …` through the real binary against a real server.
@Suite("Lists from the command line", .timeLimit(.minutes(3)))
struct ListCommandTests {
    static func object(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]) ?? [:]
    }

    static func order(_ marquee: MarqueeProcess, _ list: String, _ api: String, offline: Bool = false) async throws -> [Int] {
        let shown = try await marquee.run(["list", "show", list, "--json", "--env", api] + (offline ? ["--offline"] : []))
        return ((object(shown.standardOutput)["movies"] as? [[String: Any]]) ?? []).compactMap { $0["movieId"] as? Int }
    }

    @Test("make a list, add, move (1 is the top), remove, rename, delete; the other device shows each in the same order; moves made offline on two devices end in one order on both, no movie lost or doubled")
    func listLife() async throws {
        try await withMovieServer(auth: LoginFlow.auth(), storage: MemoryStorage(catalog: try Catalog.reference())) { server in
            let api = server.baseURL.absoluteString
            let laptop = try TemporaryConfigHome(), phone = try TemporaryConfigHome()
            #expect(try await LoginFlow.login(laptop.marquee, api: api, port: server.port, as: "alice").status == 0)
            #expect(try await LoginFlow.login(phone.marquee, api: api, port: server.port, as: "alice", signUp: false).status == 0)

            let made = try await laptop.marquee.run(["list", "create", "Heist nights", "--description", "crews and vaults", "--env", api])
            #expect(made.status == 0 && made.standardOutput.contains("Made the list 'Heist nights'"), "\(made.standardOutput)\(made.standardError)")
            for movie in [6, 7, 8, 9] {
                let added = try await laptop.marquee.run(["list", "add", "heist NIGHTS", String(movie), "--env", api])
                #expect(added.status == 0, "\(added.standardError)")
            }
            #expect(try await Self.order(phone.marquee, "Heist nights", api) == [6, 7, 8, 9])
            let moved = try await phone.marquee.run(["list", "move", "Heist nights", "9", "--to", "1", "--env", api])
            #expect(moved.standardOutput.contains("Moved") && moved.standardOutput.contains("to 1 on 'Heist nights'"), "\(moved.standardOutput)\(moved.standardError)")
            #expect(try await Self.order(laptop.marquee, "Heist nights", api) == [9, 6, 7, 8])

            // Offline on both devices: the laptop moves 8 to the top, the phone moves 6 to the end and 7 to the top.
            #expect(try await laptop.marquee.run(["list", "move", "Heist nights", "8", "--to", "1", "--env", api, "--offline"]).status == 0)
            #expect(try await phone.marquee.run(["list", "move", "Heist nights", "6", "--to", "9", "--env", api, "--offline"]).status == 0)
            #expect(try await phone.marquee.run(["list", "move", "Heist nights", "7", "--to", "1", "--env", api, "--offline"]).status == 0)
            #expect(try await Self.order(laptop.marquee, "Heist nights", api, offline: true) == [8, 9, 6, 7])
            #expect(try await Self.order(phone.marquee, "Heist nights", api, offline: true) == [7, 9, 8, 6])
            for device in [laptop, phone, laptop] { #expect(try await device.marquee.run(["sync", "--env", api]).status == 0) }
            let laptopOrder = try await Self.order(laptop.marquee, "Heist nights", api)
            let phoneOrder = try await Self.order(phone.marquee, "Heist nights", api)
            #expect(laptopOrder == phoneOrder, "one order on both")
            #expect(laptopOrder.sorted() == [6, 7, 8, 9], "no movie lost or doubled: \(laptopOrder)")

            let table = try await phone.marquee.run(["lists", "--env", api])
            #expect(table.standardOutput.contains("Heist nights  (4 movies)  crews and vaults"), "\(table.standardOutput)")
            #expect(try await phone.marquee.run(["list", "remove", "Heist nights", "7", "--env", api]).status == 0)
            #expect(try await phone.marquee.run(["list", "rename", "Heist nights", "Capers", "--env", api]).status == 0)
            #expect(try await Self.order(laptop.marquee, "capers", api).sorted() == [6, 8, 9])
            let deleted = try await laptop.marquee.run(["list", "delete", "Capers", "--env", api])
            #expect(deleted.standardOutput.contains("Deleted the list 'Capers' and its 3 movies"), "\(deleted.standardOutput)")
            let none = try await phone.marquee.run(["lists", "--json", "--env", api])
            #expect((Self.object(none.standardOutput)["lists"] as? [Any])?.isEmpty == true, "\(none.standardOutput)")
        }
    }

    @Test("a movie added offline to a list another device deletes meanwhile is dropped at the sync, with the reason, and nothing of it is kept or left pending")
    func addedToADeletedList() async throws {
        try await withMovieServer(auth: LoginFlow.auth(), storage: MemoryStorage(catalog: try Catalog.reference())) { server in
            let api = server.baseURL.absoluteString
            let laptop = try TemporaryConfigHome(), phone = try TemporaryConfigHome()
            #expect(try await LoginFlow.login(laptop.marquee, api: api, port: server.port, as: "alice").status == 0)
            #expect(try await LoginFlow.login(phone.marquee, api: api, port: server.port, as: "alice", signUp: false).status == 0)
            #expect(try await laptop.marquee.run(["list", "create", "Short", "--env", api]).status == 0)
            #expect(try await Self.order(phone.marquee, "Short", api).isEmpty)

            let added = try await phone.marquee.run(["list", "add", "Short", "6", "--env", api, "--offline"])
            #expect(added.status == 0, "\(added.standardError)")
            #expect(try await laptop.marquee.run(["list", "delete", "Short", "--env", api]).status == 0)
            let synced = try await phone.marquee.run(["sync", "--env", api])
            #expect(synced.status == 0, "\(synced.standardError)")
            #expect(synced.standardOutput.contains("1 change dropped: the list was deleted on another device."), "\(synced.standardOutput)")
            let lists = try await phone.marquee.run(["lists", "--json", "--env", api, "--offline"])
            #expect((Self.object(lists.standardOutput)["lists"] as? [Any])?.isEmpty == true, "\(lists.standardOutput)")
            let again = try await phone.marquee.run(["sync", "--env", api])
            #expect(!again.standardOutput.contains("dropped"), "nothing left pending: \(again.standardOutput)")
        }
    }

    @Test("bad input is one clear line and a non-zero exit, nothing stored: an empty name, 101 characters, a control character, a name taken, an unknown list, place 0, a movie not on it")
    func badInput() async throws {
        try await withMovieServer(auth: LoginFlow.auth(), storage: MemoryStorage(catalog: try Catalog.reference())) { server in
            let api = server.baseURL.absoluteString
            let here = try TemporaryConfigHome()
            #expect(try await LoginFlow.login(here.marquee, api: api, port: server.port, as: "alice").status == 0)
            #expect(try await here.marquee.run(["list", "create", "Noir", "--env", api]).status == 0)
            for (arguments, words) in [
                (["list", "create", " "], "a list's name cannot be empty"),
                (["list", "create", String(repeating: "n", count: 101)], "at most 100 characters, not 101"),
                (["list", "create", "a\u{1B}b"], "cannot hold control characters"),
                (["list", "create", "NOIR"], "you have a list named 'NOIR' already"),
                (["list", "show", "Westerns"], "you have no list named 'Westerns'"),
                (["list", "add", "Westerns", "6"], "you have no list named 'Westerns'"),
                (["list", "move", "Noir", "6", "--to", "0"], "a place on a list is 1 (the top) or more"),
                (["list", "move", "Noir", "6", "--to", "1"], "is not on 'Noir'"),
                (["list", "remove", "Noir", "6"], "is not on 'Noir'"),
            ] {
                let run = try await here.marquee.run(arguments + ["--env", api])
                #expect(run.status != 0, "\(arguments)")
                let lines = run.standardError.split(separator: "\n").filter { !$0.isEmpty }
                #expect(lines.count == 1 && lines.first?.contains(words) == true, "\(arguments): \(run.standardError)")
            }
            let lists = try await here.marquee.run(["lists", "--json", "--env", api])
            #expect((Self.object(lists.standardOutput)["lists"] as? [Any])?.count == 1, "\(lists.standardOutput)")
            #expect(Self.object(lists.standardOutput)["pendingChanges"] as? Int == 0)
        }
    }
}
