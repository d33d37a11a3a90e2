import Foundation
import NIOConcurrencyHelpers
import NIOCore

/// The server's answers counted and timed: `marquee_http_requests_total` by route, method and
/// status, the latency histogram `marquee_http_request_duration_seconds` by route and method, and
/// `marquee_http_event_loop_answers_total`.
///
/// Kept in shares, summed when the metrics are read: each event loop records the answers it gives
/// itself (``EventLoopResponder``) in a share of its own, which no other core writes, so an answer
/// costs an uncontended lock and a few additions; the router and the event streams record in one
/// share together. A series is known by a number (``series(route:method:status:)``), taken once.
final class RequestTallies: Sendable {
    /// A route, method and status.
    private struct SeriesKey: Hashable {
        let route: String
        let method: String
        let status: Int
    }

    /// What a share has counted for one series: answers, their total time, and how many fell in
    /// each of the histogram's buckets (each answer in the first bucket that holds it; those past
    /// the last bucket in none).
    fileprivate struct Counts {
        var answers = 0
        var nanoseconds: Int64 = 0
        var buckets: [Int]
    }

    /// Where one event loop, or the router, records.
    final class Share: Sendable {
        fileprivate let bounds: [Int64]
        private let counts = NIOLockedValueBox<[Counts]>([])

        fileprivate init(bounds: [Int64]) {
            self.bounds = bounds
        }

        /// Counts an answer of series `series` that took `duration`.
        func record(_ series: Int, duration: Duration) {
            let (seconds, attoseconds) = duration.components
            let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
            let bucket = bounds.firstIndex { nanoseconds <= $0 }
            counts.withLockedValue { counts in
                while counts.count <= series { counts.append(Counts(buckets: Array(repeating: 0, count: bounds.count))) }
                counts[series].answers += 1
                counts[series].nanoseconds += nanoseconds
                if let bucket { counts[series].buckets[bucket] += 1 }
            }
        }

        fileprivate func snapshot() -> [Counts] {
            counts.withLockedValue { $0 }
        }
    }

    /// The histogram's upper bounds, in nanoseconds, ascending.
    private let bounds: [Int64]
    private let keys = NIOLockedValueBox<(numbers: [SeriesKey: Int], known: [SeriesKey])>(([:], []))
    private let loopShares: PerEventLoop<Share>
    /// The router's and the event streams' share.
    let shared: Share

    init(bounds: [Duration]) {
        let nanoseconds = bounds.map { duration in
            let (seconds, attoseconds) = duration.components
            return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        }.sorted()
        self.bounds = nanoseconds
        shared = Share(bounds: nanoseconds)
        loopShares = PerEventLoop { _ in Share(bounds: nanoseconds) }
    }

    /// The number of the series of `route`, `method` and `status`; shown from now on, at 0 until counted.
    func series(route: String, method: String, status: Int) -> Int {
        let key = SeriesKey(route: route, method: method, status: status)
        return keys.withLockedValue { keys in
            if let number = keys.numbers[key] { return number }
            keys.numbers[key] = keys.known.count
            keys.known.append(key)
            return keys.known.count - 1
        }
    }

    /// The share of `eventLoop`, for the answers it gives itself.
    func share(for eventLoop: any EventLoop) -> Share {
        loopShares.value(for: eventLoop)
    }

    /// Every series, summed over the shares, in the Prometheus text format.
    func exposition() -> String {
        let known = keys.withLockedValue { $0.known }
        let loops = loopShares.all.map { $0.snapshot() }
        let routed = shared.snapshot()
        let empty = Counts(buckets: Array(repeating: 0, count: bounds.count))
        func sum(_ shares: [[Counts]], _ series: Int) -> Counts {
            shares.reduce(into: empty) { total, share in
                guard series < share.count else { return }
                total.answers += share[series].answers
                total.nanoseconds += share[series].nanoseconds
                for bucket in total.buckets.indices { total.buckets[bucket] += share[series].buckets[bucket] }
            }
        }
        let totals = known.indices.map { sum(loops + [routed], $0) }
        let onLoops = known.indices.reduce(0) { $0 + sum(loops, $1).answers }

        var text = "# TYPE marquee_http_requests_total counter\n"
        for (key, counts) in zip(known, totals) {
            text += "marquee_http_requests_total{\(Self.labels(key.route, key.method)),status=\"\(key.status)\"} \(counts.answers)\n"
        }
        text += "# TYPE marquee_http_request_duration_seconds histogram\n"
        var histograms: [(route: String, method: String, counts: Counts)] = []
        for (key, counts) in zip(known, totals) {
            if let index = histograms.firstIndex(where: { $0.route == key.route && $0.method == key.method }) {
                histograms[index].counts.answers += counts.answers
                histograms[index].counts.nanoseconds += counts.nanoseconds
                for bucket in bounds.indices { histograms[index].counts.buckets[bucket] += counts.buckets[bucket] }
            } else {
                histograms.append((key.route, key.method, counts))
            }
        }
        for (route, method, counts) in histograms {
            let labels = Self.labels(route, method)
            var cumulative = 0
            for (bound, count) in zip(bounds, counts.buckets) {
                cumulative += count
                text += "marquee_http_request_duration_seconds_bucket{\(labels),le=\"\(Self.seconds(bound))\"} \(cumulative)\n"
            }
            text += "marquee_http_request_duration_seconds_bucket{\(labels),le=\"+Inf\"} \(counts.answers)\n"
            text += "marquee_http_request_duration_seconds_sum{\(labels)} \(Self.seconds(counts.nanoseconds))\n"
            text += "marquee_http_request_duration_seconds_count{\(labels)} \(counts.answers)\n"
        }
        text += "# TYPE marquee_http_event_loop_answers_total counter\n"
        text += "marquee_http_event_loop_answers_total \(onLoops)\n"
        return text
    }

    private static func labels(_ route: String, _ method: String) -> String {
        "route=\"\(escaped(route))\",method=\"\(escaped(method))\""
    }

    /// A label value as the text format writes it: backslash, quote and line feed escaped.
    private static func escaped(_ value: String) -> String {
        guard value.contains(where: { $0 == "\\" || $0 == "\"" || $0 == "\n" }) else { return value }
        return value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }

    /// Nanoseconds as seconds in decimal, without trailing zeros: `0.00025`, `1.0`.
    static func seconds(_ nanoseconds: Int64) -> String {
        let fraction = String(nanoseconds % 1_000_000_000)
        let digits = String(repeating: "0", count: 9 - fraction.count) + fraction
        let trimmed = digits.reversed().drop { $0 == "0" }.reversed()
        return "\(nanoseconds / 1_000_000_000)." + (trimmed.isEmpty ? "0" : String(trimmed))
    }
}
