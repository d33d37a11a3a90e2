import Foundation
import HTTPTypes
import Networking
import NIOConcurrencyHelpers
import Testing

@Suite("APIClient", .timeLimit(.minutes(2)))
struct APIClientTests {
    let baseURL = URL(string: "http://api.test/api/")!

    @Test("a status outside the accepted range is a status error with a body excerpt")
    func validatesStatus() async {
        let transport = StubTransport.scripted([.success(.json(#"{"error":"not_found","error_description":"There is no movie with id 42."}"#, status: .notFound))])
        let client = APIClient(baseURL: baseURL, transport: transport)
        await #expect(throws: NetworkError.status(code: 404, excerpt: "There is no movie with id 42.")) {
            try await client.send(Endpoint(path: ["movies", "42"]))
        }
    }

    @Test("an HTML error page gives no excerpt")
    func dropsHTMLExcerpts() async {
        let page = APIResponse(status: .notFound, body: Data("<!DOCTYPE html><html><body>Page not found</body></html>".utf8))
        let client = APIClient(baseURL: baseURL, transport: StubTransport.scripted([.success(page)]))
        await #expect(throws: NetworkError.status(code: 404, excerpt: "")) {
            try await client.send(Endpoint(path: ["movies", "2017"]))
        }
    }

    @Test("an endpoint may accept other statuses")
    func acceptsConfiguredStatus() async throws {
        let client = APIClient(baseURL: baseURL, transport: StubTransport.scripted([.success(.json("{}", status: .notFound))]))
        let response = try await client.send(Endpoint(path: ["x"], acceptableStatusCodes: 200..<500))
        #expect(response.status == .notFound)
    }

    @Test("interceptors adapt in the order given, before every attempt")
    func adaptsInOrder() async throws {
        let transport = StubTransport.scripted([.failure(.timedOut(after: .seconds(1))), .success(.json("[]"))])
        let client = APIClient(
            baseURL: baseURL, transport: transport,
            interceptors: [HeaderAppender(value: "first"), HeaderAppender(value: "second"), RetryOnce()]
        )
        _ = try await client.send(Endpoint(path: ["movies"]))
        #expect(transport.requests.count == 2)
        for request in transport.requests {
            #expect(request.headerFields[values: HTTPField.Name("X-Trace")!] == ["first", "second"])
        }
    }

    @Test("the first interceptor that wants a retry decides, and attempts are counted from 1")
    func followsTheFirstRetryDecision() async throws {
        let seen = AttemptLog()
        let transport = StubTransport.scripted([.failure(.connectionLost("reset")), .failure(.connectionLost("reset")), .success(.json("{}"))])
        let client = APIClient(
            baseURL: baseURL, transport: transport,
            interceptors: [NeverRetry(), RetryWhile(limit: 3, seen: seen)]
        )
        _ = try await client.send(Endpoint(path: ["movies"]))
        #expect(transport.requests.count == 3)
        #expect(seen.attempts == [1, 2])
    }

    @Test("the client stops at its maximum attempts whatever the interceptors say")
    func capsAttempts() async {
        let transport = StubTransport.scripted(Array(repeating: .failure(.connectionLost("reset")), count: 10))
        let client = APIClient(baseURL: baseURL, transport: transport, interceptors: [RetryWhile(limit: 100, seen: AttemptLog())], maximumAttempts: 4)
        await #expect(throws: NetworkError.connectionLost("reset")) { try await client.send(Endpoint(path: ["x"])) }
        #expect(transport.requests.count == 4)
    }

    @Test("decoding failures carry the JSON path")
    func decodesWithPath() async {
        struct Movie: Decodable { let id: Int }
        let client = APIClient(baseURL: baseURL, transport: StubTransport.scripted([.success(.json(#"[{"id":1},{"id":"two"}]"#))]))
        do {
            _ = try await client.send(Request<[Movie]>(Endpoint(path: ["movies"])))
            Issue.record("decoding should fail")
        } catch {
            guard case let .cannotDecode(path, _) = error else { Issue.record("unexpected \(error)"); return }
            #expect(path == "$[1].id")
        }
    }

    @Test("text bodies are trimmed")
    func trimsText() async throws {
        let client = APIClient(baseURL: baseURL, transport: StubTransport.scripted([.success(APIResponse(status: .ok, body: Data("  token\n".utf8)))]))
        #expect(try await client.text(from: Endpoint(path: ["auth"])) == "token")
    }

    @Test("a retry delay is cut short by cancellation")
    func cancellationStopsRetries() async {
        let transport = StubTransport.scripted(Array(repeating: .failure(.connectionLost("reset")), count: 10))
        let client = APIClient(baseURL: baseURL, transport: transport, interceptors: [RetryAfterAnHour()])
        let task = Task { try await client.send(Endpoint(path: ["x"])) }
        while transport.requests.isEmpty { await Task.yield() }
        task.cancel()
        await #expect(throws: NetworkError.cancelled) { try await task.value }
        #expect(transport.requests.count == 1)
    }
}

private struct HeaderAppender: Interceptor {
    let value: String

    func adapt(_ request: APIRequest) async throws(NetworkError) -> APIRequest {
        var request = request
        request.headerFields.append(HTTPField(name: HTTPField.Name("X-Trace")!, value: value))
        return request
    }
}

private struct RetryOnce: Interceptor {
    func retry(_ request: APIRequest, response: APIResponse?, error: NetworkError, attempt: Int) async -> RetryDecision {
        attempt == 1 ? .retry : .doNotRetry
    }
}

private struct NeverRetry: Interceptor {}

private final class AttemptLog: Sendable {
    private let log = NIOLockedValueBox<[Int]>([])

    var attempts: [Int] { log.withLockedValue { $0 } }

    func record(_ attempt: Int) { log.withLockedValue { $0.append(attempt) } }
}

private struct RetryWhile: Interceptor {
    let limit: Int
    let seen: AttemptLog

    func retry(_ request: APIRequest, response: APIResponse?, error: NetworkError, attempt: Int) async -> RetryDecision {
        seen.record(attempt)
        return attempt < limit ? .retry : .doNotRetry
    }
}

private struct RetryAfterAnHour: Interceptor {
    func retry(_ request: APIRequest, response: APIResponse?, error: NetworkError, attempt: Int) async -> RetryDecision {
        .retryAfter(.seconds(3600))
    }
}
