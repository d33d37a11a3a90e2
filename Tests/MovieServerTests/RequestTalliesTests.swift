import Foundation
import MarqueeTestSupport
@testable import MovieServer
import NIOEmbedded
import Testing

/// The request counters and latency histograms, kept in a share per event loop and one for the
/// router, and summed when read.
@Suite("Request tallies")
struct RequestTalliesTests {
    @Test("answers recorded at once in two event loops' shares and the router's are each counted once, by series, each in the first bucket that holds it")
    func summedOverShares() async throws {
        let tallies = RequestTallies(bounds: [.milliseconds(1), .microseconds(100)])
        let loops = [EmbeddedEventLoop(), EmbeddedEventLoop()]
        let found = tallies.series(route: "/api/movies/{id}", method: "GET", status: 200)
        let missing = tallies.series(route: "/api/movies/{id}", method: "GET", status: 404)
        _ = tallies.series(route: "/api/movies", method: "HEAD", status: 200)
        #expect(tallies.series(route: "/api/movies/{id}", method: "GET", status: 404) == missing)
        await withTaskGroup { group in
            for task in 0..<12 {
                group.addTask {
                    let share = task % 3 == 2 ? tallies.shared : tallies.share(for: loops[task % 3])
                    for n in 0..<500 {
                        share.record(n % 5 == 0 ? missing : found, duration: n % 2 == 0 ? .microseconds(50) : .microseconds(500))
                    }
                }
            }
        }
        tallies.shared.record(found, duration: .seconds(2))
        tallies.shared.record(found, duration: .milliseconds(1))

        let text = PrometheusText(Data(tallies.exposition().utf8))
        let movie = ["route": "/api/movies/{id}", "method": "GET"]
        #expect(text.value("marquee_http_requests_total", movie.merging(["status": "200"]) { $1 }) == 4802)
        #expect(text.value("marquee_http_requests_total", movie.merging(["status": "404"]) { $1 }) == 1200)
        #expect(text.value("marquee_http_requests_total", ["route": "/api/movies", "method": "HEAD", "status": "200"]) == 0)
        #expect(text.value("marquee_http_request_duration_seconds_bucket", movie.merging(["le": "0.0001"]) { $1 }) == 3000)
        #expect(text.value("marquee_http_request_duration_seconds_bucket", movie.merging(["le": "0.001"]) { $1 }) == 6001, "a bucket holds its bound")
        #expect(text.value("marquee_http_request_duration_seconds_bucket", movie.merging(["le": "+Inf"]) { $1 }) == 6002)
        #expect(text.value("marquee_http_request_duration_seconds_count", movie) == 6002)
        let sum = try #require(text.value("marquee_http_request_duration_seconds_sum", movie))
        #expect(abs(sum - 3.651) < 1e-9)
        #expect(text.value("marquee_http_event_loop_answers_total", [:]) == 4000, "the two event loops' shares alone")
        #expect(tallies.share(for: loops[0]) === tallies.share(for: loops[0]))
    }

    @Test("bucket bounds and sums are written in seconds, without trailing zeros", arguments: [
        (Int64(100_000), "0.0001"), (250_000, "0.00025"), (1_000_000_000, "1.0"), (2_500_000_000, "2.5"), (0, "0.0"), (12_000_000_001, "12.000000001"),
    ])
    func secondsText(nanoseconds: Int64, text: String) {
        #expect(RequestTallies.seconds(nanoseconds) == text)
    }
}
