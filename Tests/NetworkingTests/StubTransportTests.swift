import Foundation
import HTTPTypes
import MarqueeTestSupport
import NIOConcurrencyHelpers
import Networking
import Testing

@Suite("StubTransport")
struct StubTransportTests {
    let baseURL = URL(string: "http://api.test/api/")!

    func client(_ transport: StubTransport, timeout: Duration = .seconds(30)) -> APIClient {
        APIClient(baseURL: baseURL, transport: transport, defaultTimeout: timeout)
    }

    @Test("rules match by method and path pattern, first match wins, and every request is recorded")
    func matchesRules() async throws {
        let stub = StubTransport(rules: [
            .path(.get, "movies/topRated/*", .json(Data("[1]".utf8))),
            .path(.get, "movies/*", .json(Data("[2]".utf8))),
            .path(.post, "movies/*", .status(405)),
        ])
        let client = client(stub)
        #expect(try await client.send(Request<[Int]>(Endpoint(path: ["movies", "topRated", "2016"]))) == [1])
        #expect(try await client.send(Request<[Int]>(Endpoint(path: ["movies", "6"], headerFields: [.accept: "application/json"]))) == [2])
        await #expect(throws: NetworkError.status(code: 404, excerpt: "No stub answers this request.")) {
            try await client.send(Endpoint(path: ["films", "6"]))
        }
        let recorded = stub.receivedRequests
        #expect(recorded.map(\.url.path) == ["/api/movies/topRated/2016", "/api/movies/6", "/api/films/6"])
        #expect(recorded[1].headerFields[.accept] == "application/json")
        #expect(recorded.allSatisfy { $0.method == .get })
    }

    @Test("a route rule matches that route wherever the API is mounted")
    func matchesRoutes() async throws {
        let route = Endpoint(method: .post, path: ["auth", "token"])
        let stub = StubTransport(rules: [.route(route, .status(201))])
        let response = try await client(stub).send(Endpoint(method: .post, path: ["auth", "token"], acceptableStatusCodes: 200..<300))
        #expect(response.status.code == 201)
    }

    @Test("a sequence answers in order and then repeats its last answer")
    func playsSequences() async throws {
        let stub = StubTransport(rules: [.any(.sequence([.status(503), .status(200, body: "[]")]))])
        let client = client(stub)
        await #expect(throws: NetworkError.status(code: 503, excerpt: "")) { try await client.send(Endpoint(path: ["x"])) }
        #expect(try await client.send(Endpoint(path: ["x"])).status == .ok)
        #expect(try await client.send(Endpoint(path: ["x"])).status == .ok)
    }

    @Test("malformed JSON fails decoding; a status with a body fails validation with its excerpt")
    func cannedFailures() async throws {
        let stub = StubTransport(rules: [
            .path(.get, "broken", .malformedJSON),
            .path(.get, "teapot", .status(418, body: #"{"error_description":"short and stout"}"#)),
        ])
        let client = client(stub)
        await #expect(throws: NetworkError.cannotDecode(path: "$", reason: "the body is not valid JSON")) {
            try await client.send(Request<[Int]>(Endpoint(path: ["broken"])))
        }
        await #expect(throws: NetworkError.status(code: 418, excerpt: "short and stout")) { try await client.send(Endpoint(path: ["teapot"])) }
    }

    @Test("a delay passes through the injected sleep; one as long as the timeout times out")
    func delaysDeterministically() async throws {
        let slept = NIOLockedValueBox<[Duration]>([])
        let stub = StubTransport(
            rules: [.path(.get, "slow", .delayed(.milliseconds(300), .status(200))), .path(.get, "slower", .delayed(.seconds(60), .status(200)))],
            sleep: { duration in slept.withLockedValue { $0.append(duration) } }
        )
        let client = client(stub, timeout: .seconds(5))
        #expect(try await client.send(Endpoint(path: ["slow"])).status == .ok)
        await #expect(throws: NetworkError.timedOut(after: .seconds(5))) { try await client.send(Endpoint(path: ["slower"])) }
        #expect(slept.withLockedValue { $0 } == [.milliseconds(300), .seconds(5)])
    }

    @Test("fixture files answer with their bytes; a missing one is a JSON 404")
    func servesFiles() async throws {
        let file = TestFolders.temporary.appendingPathComponent("fixture-\(UUID()).json")
        try Data("[7]".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let stub = StubTransport(rules: [
            .path(.get, "present", .file(file)),
            .path(.get, "absent", .file(file.appendingPathExtension("missing"))),
        ])
        #expect(try await client(stub).send(Request<[Int]>(Endpoint(path: ["present"]))) == [7])
        await #expect(throws: NetworkError.status(code: 404, excerpt: "no stub fixture at \(file.appendingPathExtension("missing").lastPathComponent)")) {
            try await client(stub).send(Endpoint(path: ["absent"]))
        }
    }

    @Test("noNetwork refuses the connection; timeout waits out the request's timeout")
    func failureScenarios() async throws {
        let offline = StubTransport(scenario: .noNetwork, rules: [.any(.status(200))])
        await #expect(throws: NetworkError.cannotConnect(host: "api.test", port: 80, reason: "connection refused (stub scenario noNetwork)")) {
            try await client(offline).send(Endpoint(path: ["x"]))
        }
        let slept = NIOLockedValueBox<[Duration]>([])
        let slow = StubTransport(scenario: .timeout, rules: [.any(.status(200))], sleep: { d in slept.withLockedValue { $0.append(d) } })
        await #expect(throws: NetworkError.timedOut(after: .seconds(7))) {
            try await client(slow, timeout: .seconds(7)).send(Endpoint(path: ["x"]))
        }
        #expect(slept.withLockedValue { $0 } == [.seconds(7)])
    }

    @Test("invalidPermissions: 401 first, 403 after that, and the token endpoint answered by the rules")
    func invalidPermissions() async throws {
        let stub = StubTransport(scenario: .invalidPermissions, rules: [.any(.status(200, body: "{}"))])
        let client = client(stub)
        await #expect(throws: NetworkError.status(code: 401, excerpt: "The access token is not valid.")) {
            try await client.send(Endpoint(path: ["movies", "1"]))
        }
        let token = try await client.send(Endpoint(method: .post, path: ["auth", "token"], requiresAuthentication: false))
        #expect(token.status == .ok)
        await #expect(throws: NetworkError.status(code: 403, excerpt: "This client may not read movies.")) {
            try await client.send(Endpoint(path: ["movies", "1"]))
        }
    }
}
