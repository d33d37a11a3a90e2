import Foundation
import HTTPTypes
import MarqueeTestSupport
import NIOConcurrencyHelpers
import Networking
import Testing

/// `RetryPolicy` through the real `APIClient` on the stub, with the jitter and the waits made
/// exact and instant.
@Suite("RetryPolicy", .timeLimit(.minutes(2)))
struct RetryPolicyTests {
    let baseURL = URL(string: "http://api.test/api/")!
    let waits = NIOLockedValueBox<[Duration]>([])

    /// A policy whose jitter always picks the top of its range.
    func policy(_ maximumRetries: Int = 2, base: Duration = .seconds(1), maximum: Duration = .seconds(10), now: Date = Date()) -> RetryPolicy {
        RetryPolicy(maximumRetries: maximumRetries, baseDelay: base, maximumDelay: maximum, random: { $0.upperBound }, now: { now })
    }

    func client(_ stub: StubTransport, _ policy: RetryPolicy, deadline: Duration? = nil) -> APIClient {
        let waits = self.waits
        return APIClient(baseURL: baseURL, transport: stub, interceptors: [policy], deadline: deadline, sleep: { delay in
            waits.withLockedValue { $0.append(delay) }
        })
    }

    @Test("transient statuses and failures are retried with exponential backoff", arguments: [
        StubResponse.status(500), .status(502), .status(503), .status(504), .status(408), .status(429),
        .failure(.connectionLost("reset")), .failure(.timedOut(after: .seconds(1))),
        .failure(.cannotConnect(host: "api.test", port: 80, reason: "connection refused")),
    ])
    func retriesTransientFailures(failure: StubResponse) async throws {
        let stub = StubTransport(rules: [.any(.sequence([failure, failure, .status(200, body: "[]")]))])
        _ = try await client(stub, policy()).send(Endpoint(path: ["movies"]))
        #expect(stub.receivedRequests.count == 3)
        #expect(waits.withLockedValue { $0 } == [.seconds(1), .seconds(2)])
    }

    @Test("at most the configured retries, then the failure stands")
    func capsRetries() async throws {
        let stub = StubTransport(rules: [.any(.status(503))])
        await #expect(throws: NetworkError.status(code: 503, excerpt: "")) { try await client(stub, policy()).send(Endpoint(path: ["x"])) }
        #expect(stub.receivedRequests.count == 3)
        let none = StubTransport(rules: [.any(.status(503))])
        await #expect(throws: NetworkError.self) { try await client(none, policy(0)).send(Endpoint(path: ["x"])) }
        #expect(none.receivedRequests.count == 1)
    }

    @Test("the delay is capped, and full jitter draws from zero to the cap")
    func capsAndJittersDelays() async throws {
        let stub = StubTransport(rules: [.any(.status(503))])
        await #expect(throws: NetworkError.self) {
            try await client(stub, policy(4, base: .seconds(1), maximum: .seconds(3))).send(Endpoint(path: ["x"]))
        }
        #expect(waits.withLockedValue { $0 } == [.seconds(1), .seconds(2), .seconds(3), .seconds(3)])

        let ranges = NIOLockedValueBox<[ClosedRange<Double>]>([])
        let jittered = RetryPolicy(baseDelay: .milliseconds(100), random: { range in ranges.withLockedValue { $0.append(range) }; return range.lowerBound })
        await #expect(throws: NetworkError.self) {
            try await client(StubTransport(rules: [.any(.status(500))]), jittered).send(Endpoint(path: ["x"]))
        }
        #expect(ranges.withLockedValue { $0 } == [0...0.1, 0...0.2])
    }

    @Test("errors that will not pass are not retried", arguments: [
        StubResponse.status(400), .status(401), .status(403), .status(404), .status(501), .malformedJSON,
        .failure(.bodyTooLarge(limit: 10)), .failure(.invalidRoute("bad")),
    ])
    func leavesPermanentFailures(failure: StubResponse) async throws {
        let stub = StubTransport(rules: [.any(failure)])
        await #expect(throws: NetworkError.self) { try await client(stub, policy()).send(Request<[Int]>(Endpoint(path: ["x"]))) }
        #expect(stub.receivedRequests.count == 1)
    }

    @Test("a POST is never retried unless its route says it is safe")
    func respectsRetrySafety() async throws {
        let unsafe = StubTransport(rules: [.any(.status(503))])
        await #expect(throws: NetworkError.self) { try await client(unsafe, policy()).send(Endpoint(method: .post, path: ["x"])) }
        #expect(unsafe.receivedRequests.count == 1)
        let safe = StubTransport(rules: [.any(.sequence([.status(503), .status(200)]))])
        _ = try await client(safe, policy()).send(Endpoint(method: .post, path: ["x"], isRetrySafe: true))
        #expect(safe.receivedRequests.count == 2)
    }

    @Test("Retry-After in seconds or as an HTTP date sets the wait; a date in the past is none; one longer than the maximum is capped")
    func honoursRetryAfter() async throws {
        let now = Date(timeIntervalSince1970: 784_111_770)
        func busy(_ value: String) -> StubResponse {
            .response(APIResponse(status: .serviceUnavailable, headerFields: [.retryAfter: value]))
        }
        let seconds = StubTransport(rules: [.any(.sequence([busy("7"), .status(200)]))])
        _ = try await client(seconds, policy(now: now)).send(Endpoint(path: ["x"]))
        let date = StubTransport(rules: [.any(.sequence([busy("Sun, 06 Nov 1994 08:49:37 GMT"), .status(200)]))])
        _ = try await client(date, policy(now: now)).send(Endpoint(path: ["x"]))
        let past = StubTransport(rules: [.any(.sequence([busy("Sun, 06 Nov 1994 08:00:00 GMT"), .status(200)]))])
        _ = try await client(past, policy(now: now)).send(Endpoint(path: ["x"]))
        #expect(waits.withLockedValue { $0 } == [.seconds(7), .seconds(7), .zero])

        waits.withLockedValue { $0.removeAll() }
        let tooLong = StubTransport(rules: [.any(.sequence([busy("3600"), busy("99999999999999999999999"), .status(200)]))])
        _ = try await client(tooLong, policy(now: now)).send(Endpoint(path: ["x"]))
        #expect(tooLong.receivedRequests.count == 3)
        #expect(waits.withLockedValue { $0 } == [.seconds(10), .seconds(10)], "a huge wait, even one too long for a number, is capped")

        waits.withLockedValue { $0.removeAll() }
        let notADate = StubTransport(rules: [.any(.sequence([busy("20161106"), .status(200)]))])
        _ = try await client(notADate, policy(now: now)).send(Endpoint(path: ["x"]))
        #expect(waits.withLockedValue { $0 } == [.seconds(10)], "digits are seconds (capped), never a date")

        waits.withLockedValue { $0.removeAll() }
        let garbage = StubTransport(rules: [.any(.sequence([busy("soon"), .status(200)]))])
        _ = try await client(garbage, policy(now: now)).send(Endpoint(path: ["x"]))
        #expect(waits.withLockedValue { $0 } == [.seconds(1)], "a value in neither form is ignored: the backoff applies")
    }

    @Test("a capped Retry-After is said in the request log")
    func logsCappedWaits() async throws {
        let lines = LogCapture()
        let stub = StubTransport(rules: [.any(.sequence([
            .response(APIResponse(status: .serviceUnavailable, headerFields: [.retryAfter: "86400"])), .status(200),
        ]))])
        let client = APIClient(baseURL: baseURL, transport: stub, interceptors: [policy()], sleep: { _ in }, logger: lines.logger)
        _ = try await client.send(Endpoint(path: ["x"]))
        #expect(lines.messages.contains { $0.contains("retrying in 10000 ms (the server's Retry-After asked for 86400 s; waits are capped at 10000 ms)") },
                "\(lines.messages)")
    }

    @Test("a retry that could not start before the call's deadline is not made")
    func stopsAtTheDeadline() async throws {
        let stub = StubTransport(rules: [.any(.status(503))])
        await #expect(throws: NetworkError.status(code: 503, excerpt: "")) {
            try await client(stub, policy(base: .seconds(30)), deadline: .seconds(5)).send(Endpoint(path: ["x"]))
        }
        #expect(stub.receivedRequests.count == 1)
        #expect(waits.withLockedValue { $0 }.isEmpty)
    }

    @Test("each attempt's timeout is cut to the time left before the deadline")
    func cutsTimeouts() async throws {
        let stub = StubTransport(rules: [.any(.status(200))])
        _ = try await APIClient(baseURL: baseURL, transport: stub, defaultTimeout: .seconds(30), deadline: .seconds(2)).send(Endpoint(path: ["x"]))
        _ = try await APIClient(baseURL: baseURL, transport: stub, defaultTimeout: .seconds(30)).send(Endpoint(path: ["x"]))
        let timeouts = stub.receivedRequests.map(\.timeout)
        #expect(timeouts[0] <= .seconds(2), "cut to the deadline's time left, whatever the machine's load")
        #expect(timeouts[1] == .seconds(30))
    }

    @Test("after the authentication interceptor, a 401 stays the authentication's: the policy never retries it")
    func leaves401ToAuthentication() async throws {
        let stub = StubTransport(rules: [.any(.status(401))])
        await #expect(throws: NetworkError.status(code: 401, excerpt: "")) { try await client(stub, policy()).send(Endpoint(path: ["x"])) }
        #expect(stub.receivedRequests.count == 1)
    }
}
