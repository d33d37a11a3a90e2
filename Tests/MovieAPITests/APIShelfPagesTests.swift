import Foundation
import MovieAPI
import MovieContract
import Movies
import Networking
import NIOConcurrencyHelpers
import ReferenceAPI
import Testing

/// The client's reading of a kind's pages: every page in order, and what a hostile server that
/// never ends its pages, or sends them backwards, can make it do.
@Suite("The shelf's pages on the wire")
struct APIShelfPagesTests {
    /// A server whose page after `after` is `page(after)`; counts the pages asked.
    private func service(asked: NIOLockedValueBox<[String?]>, page: @escaping @Sendable (String?) -> String) -> APIShelfService {
        let rule = StubRule.path(.get, "diary", .closure { request in
            let after = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "after" }?.value
            asked.withLockedValue { $0.append(after) }
            return .response(APIResponse(status: .init(code: 200), headerFields: [.contentType: "application/json"], body: Data(page(after).utf8)))
        })
        return APIShelfService(client: APIClient(baseURL: ReferenceStubs.baseURL, transport: StubTransport(rules: [rule], sleep: { _ in })))
    }

    private static func page(_ keys: [String], next: String?) -> String {
        let entries = keys.map { #"{"key":"\#($0)","value":{"movieId":6,"watchedOn":"2020-01-01","rewatch":false,"note":""},"changedAt":"2026-01-01T00:00:00.000Z"}"# }
        return #"{"entries":[\#(entries.joined(separator: ","))],"removed":[],"next":\#(next.map { "\"\($0)\"" } ?? "null")}"#
    }

    @Test("every page is read, each after the one before, at the server's largest size")
    func readsEveryPage() async throws {
        let asked = NIOLockedValueBox<[String?]>([])
        let snapshot = try await service(asked: asked) { after in
            switch after {
            case nil: Self.page(["a", "b"], next: "b")
            case "b": Self.page(["c"], next: "c")
            default: Self.page([], next: nil)
            }
        }.records(Diary.self)
        #expect(snapshot.records.map(\.key) == ["a", "b", "c"])
        #expect(asked.withLockedValue { $0 } == [nil, "b", "c"])
    }

    @Test("a server whose pages never end is given up on after 1,000 pages with one clear error; one whose next goes backwards at once")
    func hostilePages() async throws {
        let asked = NIOLockedValueBox<[String?]>([])
        await #expect(throws: NetworkError.self) {
            _ = try await service(asked: asked) { after in
                let next = String(format: "k%07d", (after.flatMap { Int($0.dropFirst()) } ?? 0) + 1)
                return Self.page([next], next: next)
            }.records(Diary.self)
        }
        #expect(asked.withLockedValue { $0.count } == 1_000)
        let backwards = NIOLockedValueBox<[String?]>([])
        do {
            _ = try await service(asked: backwards) { _ in Self.page(["a"], next: "a") }.records(Diary.self)
            Issue.record("a next that does not move on was followed")
        } catch {
            #expect(error.description.contains("a page's next does not come after the page before it"), "\(error)")
        }
        #expect(backwards.withLockedValue { $0.count } == 2)
    }
}
