import Foundation
import MarqueeTestSupport
import NetworkTestSupport
import Testing

/// What a `traceparent` makes `marquee serve` do, seen from a stand-in collector and the
/// server's metrics: the sampling decision, not the header's presence, sends a request to the
/// router, and a caller cannot have more traced than it is allowed.
@Suite("Sampling requests that carry a traceparent")
struct TraceSamplingTests {
    static let ids = "4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7"

    static func eventLoopAnswers(_ port: Int) async throws -> Double {
        PrometheusText(try await LoopbackHTTP.send(port: port, "/metrics").body).value("marquee_http_event_loop_answers_total", [:]) ?? 0
    }

    @Test("at ratio 0 with the callers' flags untrusted, 500 sampled traceparents export nothing and are answered from the event loop")
    func untrustedFlagsAtRatioZero() async throws {
        let collector = try await StandInCollector.start()
        defer { collector.stop() }
        var marquee = MarqueeProcess()
        marquee.environment.merge(collector.environment) { $1 }
        marquee.environment.merge(["OTEL_TRACES_SAMPLER": "parentbased_traceidratio", "OTEL_TRACES_SAMPLER_ARG": "0"]) { $1 }
        let (server, port) = try await marquee.serve(["--port", "0", "--public"])
        #expect(try await LoopbackHTTP.send(port: port, "/api/movies/7").status == 200)
        let before = try await Self.eventLoopAnswers(port)
        for _ in 0..<500 {
            #expect(try await LoopbackHTTP.send(port: port, "/api/movies/7", headers: [("traceparent", "00-\(Self.ids)-01")]).status == 200)
        }
        #expect(try await Self.eventLoopAnswers(port) - before >= 500, "not sampled, a request with a traceparent takes the event loop's kept answer")
        for index in 0..<20 {
            #expect(try await LoopbackHTTP.send(port: port, "/api/movies?query=routed\(index)", headers: [("traceparent", "00-\(Self.ids)-01")]).status == 200)
        }
        #expect(await server.signal() == 0, "stopped, so anything queued would have been sent")
        #expect(collector.spans.filter { $0.service == "marquee-server" }.isEmpty, "\(collector.spans.prefix(3))")
    }

    @Test("with trusted flags, an unsampled or malformed traceparent is answered from the event loop, and a sampled one traced")
    func unsampledAndMalformedOnEventLoop() async throws {
        let collector = try await StandInCollector.start()
        defer { collector.stop() }
        var marquee = MarqueeProcess()
        marquee.environment.merge(collector.environment) { $1 }
        let (server, port) = try await marquee.serve(["--port", "0", "--public", "--trust-trace-flags"])
        #expect(try await LoopbackHTTP.send(port: port, "/api/movies/7").status == 200)
        let before = try await Self.eventLoopAnswers(port)
        let values = ["00-\(Self.ids)-00", "00-\(Self.ids)-0", "00-\(Self.ids.uppercased())-01", "ff-\(Self.ids)-01", "00-" + String(repeating: "z", count: 4000) + "-01"]
        for _ in 0..<10 {
            for value in values {
                #expect(try await LoopbackHTTP.send(port: port, "/api/movies/7", headers: [("traceparent", value)]).status == 200)
            }
        }
        #expect(try await Self.eventLoopAnswers(port) - before >= Double(10 * values.count))
        #expect(try await LoopbackHTTP.send(port: port, "/api/movies/7", headers: [("traceparent", "00-\(Self.ids)-01")]).status == 200)
        #expect(await server.signal() == 0, "stopped, so anything queued would have been sent")
        let traced = collector.spans.filter { $0.service == "marquee-server" && $0.attributes["url.path"] == "/api/movies/7" }
        #expect(traced.filter { $0.traceID == "4bf92f3577b34da6a3ce929d0e0e4736" }.count == 1, "only the sampled request continued its trace: \(traced)")
        #expect(traced.count == 2, "and the first request, routed without a traceparent, began one: \(traced)")
    }

    @Test("behind a trusted proxy the callers' flags are trusted, and each client has at most its allowance traced")
    func allowancePerClient() async throws {
        let collector = try await StandInCollector.start()
        defer { collector.stop() }
        var marquee = MarqueeProcess()
        marquee.environment.merge(collector.environment) { $1 }
        marquee.environment.merge(["OTEL_TRACES_SAMPLER": "parentbased_always_off"]) { $1 }
        let (server, port) = try await marquee.serve([
            "--port", "0", "--public", "--trusted-proxy", "127.0.0.1", "--public-url", "http://127.0.0.1", "--traces-per-minute", "5",
        ])
        #expect(try await LoopbackHTTP.send(port: port, "/api/movies/7").status == 200)
        for client in ["198.51.100.7", "198.51.100.8"] {
            for _ in 0..<20 {
                let headers = [("traceparent", "00-\(Self.ids)-01"), ("X-Forwarded-For", client)]
                #expect(try await LoopbackHTTP.send(port: port, "/api/movies/7", headers: headers).status == 200)
            }
        }
        #expect(await server.signal() == 0, "stopped, so anything queued would have been sent")
        let traced = collector.spans.filter { $0.service == "marquee-server" && $0.attributes["url.path"] == "/api/movies/7" }
        #expect(traced.count == 10, "five for each client: \(traced.map(\.attributes))")
    }
}
