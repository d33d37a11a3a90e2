import Foundation
import MovieServer
import NetworkTestSupport
import ServerTestSupport
import Testing

/// One rule for reading a query string, the same in the router and in the response cache's key.
@Suite("Query strings")
struct QueryStringTests {
    static let plain = "/api/movies?query=zoe&limit=3"

    @Test("empty parameters are skipped and names are percent-decoded, routed and answered on the event loop alike", arguments: [
        "/api/movies?query=zoe&&limit=3", "/api/movies?query=zoe&limit=3&", "/api/movies?&query=zoe&limit=3",
        "/api/movies?q%75ery=zoe&limit=3", "/api/movies?limit=3&query=z%6Fe", "/api/movies?%71uery=zoe&lim%69t=%33",
    ])
    func oneRule(target: String) async throws {
        for onEventLoop in [false, true] {
            try await withMovieServer(answersOnEventLoop: onEventLoop) { server in
                let client = ServerClient(server: server)
                let expected = try await client.get(Self.plain)
                #expect(expected.status == 200)
                let first = try await client.get(target)
                let second = try await client.get(target)
                #expect(first.status == 200, "\(target): \(String(decoding: first.body, as: UTF8.self))")
                #expect(first.body == expected.body, "\(target)")
                #expect(second.body == expected.body, "\(target), asked again (on the event loop: \(onEventLoop))")
                if onEventLoop {
                    #expect(try await EventLoopAnswering.eventLoopAnswers(server) == 2, "one key for every spelling: the later asks come from the kept answer")
                }
            }
        }
    }

    @Test("escaped separators in a value are part of the value: no two different searches share a kept answer")
    func escapedSeparatorsDoNotCollide() async throws {
        try await withMovieServer { server in
            let client = ServerClient(server: server)
            let plain = try await client.get("/api/movies?query=the&limit=3")
            let escaped = try await client.get("/api/movies?query=the%26limit%3D3")
            let again = try await client.get("/api/movies?query=the&limit=3")
            #expect(plain.status == 200)
            #expect(escaped.status == 200)
            #expect(again.body == plain.body)
            #expect(escaped.body != plain.body, "the query 'the&limit=3' is another search")
        }
    }

    @Test("a fragment ends the query for the kept answer as for the router: `?query=the#&limit=1` is the search `query=the`, and shares no answer with `?query=the%23&limit=1`, whichever comes first")
    func fragmentEndsTheQuery() async throws {
        let fragment = "GET /api/movies?query=the#&limit=1 HTTP/1.1\r\nHost: marquee.test\r\nConnection: close\r\n\r\n"
        let escaped = "/api/movies?query=the%23&limit=1"
        for onEventLoop in [false, true] {
            for fragmentFirst in [true, false] {
                try await withMovieServer(answersOnEventLoop: onEventLoop) { server in
                    let client = ServerClient(server: server)
                    let plain = try await client.get("/api/movies?query=the")
                    var escapedAnswer: ServerClient.Answer?
                    if !fragmentFirst { escapedAnswer = try await client.get(escaped) }
                    let reply = try await RawConnection.exchange(port: server.port, fragment)
                    if escapedAnswer == nil { escapedAnswer = try await client.get(escaped) }
                    let body = reply.text.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
                    let order = "on the event loop: \(onEventLoop), the fragment first: \(fragmentFirst)"
                    #expect(reply.text.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(order)")
                    #expect(body == String(decoding: plain.body, as: UTF8.self), "the router's search, query=the (\(order))")
                    #expect(escapedAnswer?.status == 200)
                    #expect(escapedAnswer?.body != plain.body, "the search for 'the#', 1 a page (\(order))")
                }
            }
        }
    }

    @Test("a search spelt with combining marks is not answered with the kept answer of its precomposed twin: 200 é are a search, 200 e with an accent each are over the limit")
    func equivalentSpellingsAreKeptApart() async throws {
        let precomposed = String(repeating: "\u{E9}", count: 200)
        let decomposed = String(repeating: "e\u{301}", count: 200)
        for onEventLoop in [false, true] {
            try await withMovieServer(answersOnEventLoop: onEventLoop) { server in
                let client = ServerClient(server: server)
                let kept = try await client.get("/api/movies?query=\(Self.escaped(precomposed))")
                let twin = try await client.get("/api/movies?query=\(Self.escaped(decomposed))")
                #expect(kept.status == 200)
                #expect(twin.status == 400, "on the event loop: \(onEventLoop)")
            }
        }
    }

    static func escaped(_ query: String) -> String {
        query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? query
    }

    @Test("the query's 200-character limit counts code points, so combining marks count", arguments: [
        ("a" + String(repeating: "\u{301}", count: 200), 400),
        (String(repeating: "\u{E9}", count: 200), 200),
        (String(repeating: "e\u{301}", count: 100), 200),
        (String(repeating: "e\u{301}", count: 101), 400),
    ])
    func queryLengthInCodePoints(query: String, status: Int) async throws {
        try await withMovieServer { server in
            let encoded = query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? query
            let answer = try await ServerClient(server: server).get("/api/movies?query=\(encoded)")
            #expect(answer.status == status, "\(String(decoding: answer.body, as: UTF8.self))")
        }
    }
}
