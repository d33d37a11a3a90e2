import Foundation
import MovieServer
import NetworkTestSupport
import ServerTestSupport
import Testing

/// Requests sent together in one write, as an attacker's client sends them: every answer leaves
/// in the order of the requests, a refusal included, and nothing after a refused request, or
/// after one that closes the connection, is read.
@Suite("Pipelined answers in request order")
struct PipelinedAnswerOrderTests {
    static let movieID = try! Catalog.reference().movies[0].id
    static let otherMovieID = try! Catalog.reference().movies[1].id

    /// A request the connection's guard refuses, and the status it is refused with.
    static let refused: [(request: String, status: Int)] = [
        ("CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n", 405),
        ("GET /api/movies/1 HTTP/1.1\r\n\r\n", 400),
        ("GET /api/movies/1 HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\n\r\n", 400),
        ("POST /api/auth/token HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
        ("GET /api/movies/1 HTTP/1.1\r\nHost: x\r\nBroken header line\r\n\r\n", 400),
    ]

    /// A `PUT` of `movie` to the watchlist of the holder of `access`, as one request's text.
    static func put(_ movie: Int, access: String, closing: Bool = false) -> String {
        let body = #"{"note":"pipelined"}"#
        return "PUT /api/watchlist/\(movie) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(access)\r\n"
            + "Idempotency-Key: \(UUID().uuidString)\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
            + (closing ? "Connection: close\r\n" : "") + "\r\n" + body
    }

    /// The status of each answer in `text`, in the order they were written.
    static func statuses(_ text: String) -> [Int] {
        text.matches(of: #/HTTP/1\.[01] (\d{3}) /#).compactMap { Int($0.output.1) }
    }

    static func listedMovies(_ access: String, on server: ServerClient) async throws -> Set<Int> {
        let list = try await server.get("/api/watchlist", headers: [("Authorization", "Bearer \(access)")])
        let entries = try #require(list.json?["entries"] as? [[String: Any]], "\(list.status)")
        return Set(entries.compactMap { $0["movieId"] as? Int })
    }

    @Test("a refusal pipelined behind a PUT is written after the PUT's answer, then the connection closes; nothing after it is read", arguments: Self.refused)
    func refusalWaitsForTheAnswerBefore(refused: (request: String, status: Int)) async throws {
        try await withServerClient(auth: PersonSignIn.auth()) { server in
            let (access, _) = try await PersonSignIn.tokens("alice", on: server)
            let pipelined = Self.put(Self.movieID, access: access) + refused.request + Self.put(Self.otherMovieID, access: access)
            let reply = try await RawConnection.exchange(port: server.server.port, pipelined)
            #expect(reply.closedByServer)
            #expect(Self.statuses(reply.text) == [200, refused.status], "\(reply.text)")
            #expect(try await Self.listedMovies(access, on: server) == [Self.movieID], "the PUT was applied, the one after the refusal was not")
        }
    }

    @Test("a request pipelined after one with Connection: close is neither read nor applied")
    func nothingAfterClose() async throws {
        try await withServerClient(auth: PersonSignIn.auth()) { server in
            let (access, _) = try await PersonSignIn.tokens("bob", on: server)
            let pipelined = Self.put(Self.movieID, access: access, closing: true) + Self.put(Self.otherMovieID, access: access)
            let reply = try await RawConnection.exchange(port: server.server.port, pipelined)
            #expect(reply.closedByServer)
            #expect(Self.statuses(reply.text) == [200], "\(reply.text)")
            #expect(try await Self.listedMovies(access, on: server) == [Self.movieID])
        }
    }

    @Test("a request pipelined after an HTTP/1.0 one without keep-alive is not answered", arguments: [true, false])
    func nothingAfterHTTP10(keptFirst: Bool) async throws {
        try await withMovieServer { server in
            if keptFirst { _ = try await ServerClient(server: server).get("/api/movies/topGrossing/2016") }
            let pipelined = "GET /api/movies/topGrossing/2016 HTTP/1.0\r\n\r\nGET /api/movies/2 HTTP/1.1\r\nHost: x\r\n\r\n"
            let reply = try await RawConnection.exchange(port: server.port, pipelined)
            #expect(reply.closedByServer)
            #expect(Self.statuses(reply.text) == [200], "\(reply.text)")
        }
    }

    @Test("an HTTP/1.0 request with Transfer-Encoding: chunked is a 400 and closed, its body never read as chunks")
    func http10Chunked() async throws {
        try await withMovieServer(auth: PersonSignIn.auth()) { server in
            let form = "grant_type=client_credentials&client_id=marquee-dev&client_secret=marquee-dev-secret"
            let chunked = String(form.utf8.count, radix: 16) + "\r\n" + form + "\r\n0\r\n\r\n"
            let request = "POST /api/auth/token HTTP/1.0\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked
            let reply = try await RawConnection.exchange(port: server.port, request)
            #expect(reply.closedByServer)
            #expect(Self.statuses(reply.text) == [400], "\(reply.text)")
            #expect(reply.text.contains("Transfer-Encoding"), "the answer says why: \(reply.text)")
            #expect(!reply.text.contains("access_token"))
        }
    }

    @Test("an answer to a request with Connection: close says Connection: close, kept on the event loop or routed", arguments: [true, false])
    func closingAnswerSaysSo(kept: Bool) async throws {
        try await withMovieServer { server in
            let path = kept ? "/api/movies/topGrossing/2016" : "/api/movies/2"
            if kept { _ = try await ServerClient(server: server).get(path) }
            let before = try await EventLoopAnswering.eventLoopAnswers(server)
            let reply = try await RawConnection.exchange(port: server.port, EventLoopAnswering.request("GET", path))
            #expect(reply.closedByServer)
            #expect(Self.statuses(reply.text) == [200])
            let head = reply.text.components(separatedBy: "\r\n\r\n")[0].lowercased()
            #expect(head.contains("\r\nconnection: close"), "\(head)")
            #expect(try await EventLoopAnswering.eventLoopAnswers(server) == before + (kept ? 1 : 0), "answered where the test meant")
        }
    }
}
