import Foundation
import Hummingbird
import NetworkTestSupport
import Networking
import ServerTestSupport
import Testing

/// The live transport against real servers on loopback.
@Suite("AsyncHTTPClientTransport", .timeLimit(.minutes(2)))
struct AsyncHTTPClientTransportTests {
    @Test("a response comes back whole, with status and headers, whatever its status")
    func returnsResponses() async throws {
        try await withLoopbackServer({ router in
            router.get("api/hello") { _, _ in
                Response(status: .accepted, headers: [.contentType: "text/html"], body: .init(byteBuffer: ByteBuffer(string: " [1,2] ")))
            }
        }) { server in
            try await withTransport { transport in
                let client = APIClient(baseURL: server.baseURL, transport: transport)
                let numbers = try await client.send(Networking.Request<[Int]>(Endpoint(path: ["hello"])))
                #expect(numbers == [1, 2])
                let response = try await client.send(Endpoint(path: ["missing"], acceptableStatusCodes: 200..<600))
                #expect(response.status == .notFound)
            }
        }
    }

    @Test("a refused connection names the host and port")
    func reportsRefusedConnections() async throws {
        let port = try await closedLoopbackPort()
        try await withTransport { transport in
            let client = APIClient(baseURL: URL(string: "http://127.0.0.1:\(port)/api/")!, transport: transport)
            await #expect(throws: NetworkError.cannotConnect(host: "127.0.0.1", port: port, reason: "connection refused")) {
                try await client.send(Endpoint(path: ["movies", "1"]))
            }
        }
    }

    @Test("a server that does not answer within the timeout gives timedOut")
    func timesOut() async throws {
        let (release, releaser) = AsyncStream<Void>.makeStream()
        try await withLoopbackServer({ router in
            router.get("api/slow") { _, _ in
                for await _ in release {}
                return "late"
            }
        }) { server in
            try await withTransport { transport in
                let client = APIClient(baseURL: server.baseURL, transport: transport)
                await #expect(throws: NetworkError.timedOut(after: .milliseconds(200))) {
                    try await client.send(Endpoint(path: ["slow"], timeout: .milliseconds(200)))
                }
            }
            releaser.finish()
        }
    }

    @Test("cancelling the calling task cancels the request under way")
    func cancels() async throws {
        let (arrivals, arrived) = AsyncStream<Void>.makeStream()
        let (release, releaser) = AsyncStream<Void>.makeStream()
        try await withLoopbackServer({ router in
            router.get("api/slow") { _, _ in
                arrived.yield()
                for await _ in release {}
                return "late"
            }
        }) { server in
            try await withTransport { transport in
                let client = APIClient(baseURL: server.baseURL, transport: transport, defaultTimeout: .seconds(120))
                let task = Task { try await client.send(Endpoint(path: ["slow"])) }
                var iterator = arrivals.makeAsyncIterator()
                await iterator.next()
                task.cancel()
                await #expect(throws: NetworkError.cancelled, "the server never answers and the timeout is 2 minutes: only cancellation ends the call") {
                    try await task.value
                }
            }
            releaser.finish()
        }
    }

    @Test("a body over the limit fails with bodyTooLarge instead of growing")
    func limitsBodies() async throws {
        try await withLoopbackServer({ router in
            router.get("api/big") { _, _ in
                Response(status: .ok, body: .init(byteBuffer: ByteBuffer(repeating: UInt8(ascii: "x"), count: 64 * 1024)))
            }
        }) { server in
            var configuration = AsyncHTTPClientTransport.Configuration()
            configuration.maximumBodySize = 16 * 1024
            try await withTransport(configuration) { transport in
                let client = APIClient(baseURL: server.baseURL, transport: transport)
                await #expect(throws: NetworkError.bodyTooLarge(limit: 16 * 1024)) {
                    try await client.send(Endpoint(path: ["big"]))
                }
            }
        }
    }
}

/// HTTPS spoken to a plain-HTTP port: a sentence a user can act on, not a TLS library's text.
@Suite("TLS errors")
struct TLSErrorTests {
    @Test("HTTPS to a plain-HTTP port is cannotConnect with a TLS hint and no build path")
    func httpsToPlainPort() async throws {
        try await withLoopbackServer({ router in router.get("api/x") { _, _ in "plain" } }) { server in
            // The plain server refuses the TLS hello at once; the connect timeout is the default's
            // twelvefold only so that a starved machine cannot turn that refusal into a time-out.
            var configuration = AsyncHTTPClientTransport.Configuration()
            configuration.connectTimeout = .seconds(60)
            try await withTransport(configuration) { transport in
                let baseURL = URL(string: "https://127.0.0.1:\(server.port)/api/")!
                await #expect {
                    try await APIClient(baseURL: baseURL, transport: transport, defaultTimeout: .seconds(120)).send(Endpoint(path: ["x"]))
                } throws: { error in
                    guard case let .cannotConnect(_, port, reason) = error as? NetworkError else { return false }
                    return port == server.port && reason.hasPrefix("the TLS handshake failed") && !"\(error)".contains(".build")
                }
            }
        }
    }
}
