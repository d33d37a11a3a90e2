import Foundation
import MarqueeTestSupport
@testable import MovieServer
import NetworkTestSupport
import Networking
import ServerTestSupport
import Testing

/// Opening and reading `GET /api/events` streams in a test: the stream, a watchlist change to
/// cause an event, an application's token, the events' JSON.
enum FeedStreams {
    /// A stream opened with `token`; `forwardedFor` is the client address a trusted proxy would name.
    static func stream(_ client: ServerClient, token: String, lastEventID: String? = nil, forwardedFor: String? = nil) async throws -> EventStreamTap {
        var headers = [("Authorization", "Bearer \(token)")]
        if let lastEventID { headers.append(("Last-Event-ID", lastEventID)) }
        if let forwardedFor { headers.append(("X-Forwarded-For", forwardedFor)) }
        return try await EventStreamTap.open(client.server.baseURL.appendingPathComponent("events"), headers: headers)
    }

    static func note(_ watchlister: Watchlister, movie: Int, _ note: String) async throws {
        let answer = try await watchlister.put(movie, key: UUID().uuidString, #"{"note":"\#(note)"}"#)
        #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
    }

    static func appToken(_ client: ServerClient) async throws -> String {
        let issued = try await client.get("/api/auth/token", method: .POST, headers: TokenForms.form, body: TokenForms.clientGrant)
        return try #require(issued.json?["access_token"] as? String)
    }

    static func json(_ event: ServerSentEvent) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(event.data.utf8)) as? [String: Any]) ?? [:]
    }

    /// Writes rounds of 500 changes, each with a 1,000-character note (about 550 KB of events a
    /// round), while `going` holds; returns the rounds written.
    static func flood(_ watchlister: Watchlister, catalog: Catalog, rounds: Int, while going: () -> Bool) async throws -> Int {
        let note = String(repeating: "n", count: 1_000)
        var written = 0
        for round in 0..<rounds where going() {
            let changes = (0..<500).map { index in
                let movie = catalog.movies[(round * 500 + index) % catalog.movies.count].id
                return #"{"id":"c\#(round)-\#(index)","movieId":\#(movie),"action":"add","note":"\#(note)","changedAt":"2026-01-01T00:\#(String(format: "%02d", round)):00.000Z"}"#
            }
            #expect(try await watchlister.batch(key: "k\(round)", changes).status == 200)
            written += 1
        }
        return written
    }
}
