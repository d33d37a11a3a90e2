import Foundation
import MarqueeTestSupport
import MovieServer
import NetworkTestSupport
import ServerTestSupport
import Testing

/// Requests and answers of the event-loop path (``CachedAnswers``), built the way the server
/// builds them, for the tests that compare it with the router.
enum EventLoopAnswering {
    static func eventLoopAnswers(_ server: TestMovieServer) async throws -> Double {
        let metrics = try await ServerClient(server: server).get("/metrics")
        return PrometheusText(metrics.body).value("marquee_http_event_loop_answers_total", [:]) ?? 0
    }

    /// `reply` with its `Date` line, which may differ between two servers, made constant.
    static func withoutDate(_ reply: String) -> String {
        reply.replacing(/Date: [^\r]*\r\n/, with: "Date: -\r\n")
    }

    static func request(_ method: String, _ path: String, _ headers: String = "") -> String {
        "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(headers)Connection: close\r\n\r\n"
    }
}
