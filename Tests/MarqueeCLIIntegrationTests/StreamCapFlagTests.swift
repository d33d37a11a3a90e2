import AsyncHTTPClient
import Foundation
import MarqueeTestSupport
import Testing

/// The live feed's caps as `marquee serve` takes them from its flags.
@Suite("The live feed's caps from serve's flags", .timeLimit(.minutes(1)))
struct StreamCapFlagTests {
    let marquee = MarqueeProcess()

    @Test("--event-streams-per-application 2: an application's own token holds two streams, and the third is a 429 naming the cap")
    func applicationCap() async throws {
        let (server, port) = try await marquee.serve(["--port", "0", "--event-streams-per-application", "2"])
        defer { server.send(SIGKILL) }
        let token = try await SigningKeyCommandTests.token(from: port)
        func open() async throws -> HTTPClientResponse {
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/api/events")
            request.headers.add(name: "Authorization", value: "Bearer \(token)")
            return try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        }
        var held: [HTTPClientResponse] = []
        for _ in 0..<2 {
            let stream = try await open()
            #expect(stream.status.code == 200)
            held.append(stream)
        }
        let refused = try await open()
        try #require(refused.status.code == 429, "a third stream was opened")
        let body = String(buffer: try await refused.body.collect(upTo: 64 * 1024))
        #expect(body.contains("too_many_streams"), "\(body)")
        #expect(held.count == 2)
    }
}
