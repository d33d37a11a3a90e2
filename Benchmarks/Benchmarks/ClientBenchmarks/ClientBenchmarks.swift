// Marquee's client against its baselines, side by side in one process: the full stack against
// raw AsyncHTTPClient + JSONDecoder on the same loopback server, the interceptor chain against
// none, and the DTO decoding path against JSONSerialization. scripts/bench turns the pairs into
// ratios in docs/benchmarks.md.
import AsyncHTTPClient
import Benchmark
import Foundation
import MovieAPI
import MovieContract
import MovieServer
import Movies
import NIOCore
import Networking

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        warmupIterations: 20,
        maxDuration: .seconds(4),
        maxIterations: 100_000
    )

    for concurrency in [1, 64] {
        Benchmark("client/raw AsyncHTTPClient topGrossing c\(concurrency)", closure: { benchmark in
            try await LoopbackFixture.shared.run(concurrency: concurrency, iterations: benchmark.scaledIterations.count) {
                try await LoopbackFixture.shared.rawTopGrossing()
            }
        }, setup: { try await LoopbackFixture.shared.start() })

        Benchmark("client/Marquee topGrossing c\(concurrency)", closure: { benchmark in
            try await LoopbackFixture.shared.run(concurrency: concurrency, iterations: benchmark.scaledIterations.count) {
                try await LoopbackFixture.shared.marqueeTopGrossing(concurrency: concurrency)
            }
        }, setup: { try await LoopbackFixture.shared.start() })
    }

    // Raw and Marquee batches alternate within one process (the order flipped every round), so
    // that the machine's noise hits both alike; each side's latencies are kept apart, and their
    // percentiles and ratios are written for the report in teardown.
    for concurrency in [1, 64] {
        Benchmark("client/interleaved pair c\(concurrency)", closure: { benchmark in
            for _ in benchmark.scaledIterations {
                try await InterleavedPair.shared.round(concurrency: concurrency)
            }
        }, setup: { try await LoopbackFixture.shared.start() }, teardown: {
            let summary = InterleavedPair.shared.summary(concurrency: concurrency)
            FileHandle.standardError.write(Data((summary + "\n").utf8))
            guard let folder = ProcessInfo.processInfo.environment["MARQUEE_BENCH_RESULTS"] else { return }
            try Data((summary + "\n").utf8).write(to: URL(fileURLWithPath: folder).appendingPathComponent("client-interleaved-c\(concurrency).txt"))
        })
    }

    // 100 identical calls at once through the stack that shares exchanges: the requests that reach
    // the transport are counted, and their number per 100 calls written for the report.
    Benchmark("client/Marquee 100 identical concurrent calls, shared", closure: { benchmark in
        for _ in benchmark.scaledIterations {
            try await SharedFixture.shared.hundredCalls()
        }
    }, setup: { try await LoopbackFixture.shared.start() }, teardown: {
        guard let folder = ProcessInfo.processInfo.environment["MARQUEE_BENCH_RESULTS"] else { return }
        let line = Data("shared-requests-per-100-calls \(SharedFixture.shared.requestsPerBatch)\n".utf8)
        try line.write(to: URL(fileURLWithPath: folder).appendingPathComponent("shared-figures.txt"))
    })

    // One iteration is 1,000 requests on the stub, so the per-request cost is the iteration's / 1,000.
    Benchmark("interceptors/none, 1000 requests") { benchmark in
        for _ in benchmark.scaledIterations {
            for _ in 0..<1000 { blackHole(try await StubFixture.bare.send(StubFixture.endpoint)) }
        }
    }

    Benchmark("interceptors/authentication and retry, 1000 requests") { benchmark in
        for _ in benchmark.scaledIterations {
            for _ in 0..<1000 { blackHole(try await StubFixture.intercepted.send(StubFixture.endpoint)) }
        }
    }

    Benchmark("interceptors/authentication, retry and shared exchanges, 1000 requests") { benchmark in
        for _ in benchmark.scaledIterations {
            for _ in 0..<1000 { blackHole(try await StubFixture.interceptedAndShared.send(StubFixture.endpoint)) }
        }
    }

    Benchmark("decoding/JSONSerialization 10k movies", closure: { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try JSONSerialization.jsonObject(with: DecodingFixture.body))
        }
    }, setup: {
        guard let folder = ProcessInfo.processInfo.environment["MARQUEE_BENCH_RESULTS"] else { return }
        let line = Data("decoding-body-bytes \(DecodingFixture.body.count)\n".utf8)
        try line.write(to: URL(fileURLWithPath: folder).appendingPathComponent("decoding-figures.txt"))
    })

    Benchmark("decoding/Marquee DTOs to Movie 10k movies") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try APIRoute.moviesRequest(.topGrossing, year: 2016).decode(DecodingFixture.body))
        }
    }
}

/// The same loopback server for both clients, started once.
final class LoopbackFixture: @unchecked Sendable {
    static let shared = LoopbackFixture()

    private let lock = NSLock()
    private var running: RunningServer?
    private var rawClient: HTTPClient?
    private var marquee: APIMovieService?
    private var marqueeUnshared: APIMovieService?
    private var url = ""
    /// The server's base URL, once started.
    var baseURL: URL? { lock.withLock { running?.baseURL } }

    func start() async throws {
        if lock.withLock({ running != nil }) { return }
        var configuration = MovieServer.Configuration(host: "127.0.0.1", port: 0, storage: MemoryStorage(catalog: try Catalog.reference()), auth: .publicAccess)
        // A line per request on standard output would be measured on both sides; the client is what is compared.
        configuration.logger.logLevel = .warning
        let server = try await MovieServer(configuration: configuration).start()
        let transport = AsyncHTTPClientTransport()
        let credential = Credential(accessToken: "unused-by-a-public-server", refreshToken: nil, issuedAt: Date(), expiresAt: .distantFuture)
        let context = InMemoryAPIContext(environment: APIEnvironment(.custom(try APIBaseURL(server.baseURL)))!, credential: credential)
        let clientCredentials = APIClientCredentials(id: "marquee-dev", secret: "marquee-dev-secret")
        // One at a time, the stack as the app builds it (identical requests in flight would share an
        // exchange, and each request pays for looking). Many at a time, identical calls would share
        // one request, so that stack sends each call on its own, as the raw client does: the pair
        // then measures the cost of a request, not the saving of sharing one.
        let stack = APIClientStack(context: context, transport: transport, clientCredentials: clientCredentials)
        let unshared = APIClientStack(context: context, transport: transport, clientCredentials: clientCredentials, sharesExchanges: false)
        var rawConfiguration = HTTPClient.Configuration()
        rawConfiguration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 8
        // Marquee's transport opens no tracing span per request; neither does the baseline, so the
        // pair compares what differs in the stacks and not a setting.
        rawConfiguration.tracing.tracer = nil
        lock.withLock {
            running = server
            url = server.baseURL.absoluteString + "movies/topGrossing/2016"
            rawClient = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: rawConfiguration)
            marquee = stack.movieService
            marqueeUnshared = unshared.movieService
        }
    }

    func rawTopGrossing() async throws -> Int {
        let (client, target): (HTTPClient, String) = lock.withLock { (self.rawClient!, self.url) }
        let response = try await client.execute(HTTPClientRequest(url: target), timeout: TimeAmount.seconds(30))
        let body = try await response.body.collect(upTo: 10 * 1024 * 1024)
        return try JSONDecoder().decode([CatalogMovie].self, from: Data(body.readableBytesView)).count
    }

    func marqueeTopGrossing(concurrency: Int) async throws -> Int {
        let service = lock.withLock { concurrency == 1 ? marquee! : marqueeUnshared! }
        return try await service.movies(.topGrossing, year: 2016).count
    }

    /// `iterations` requests, `concurrency` at a time.
    func run(concurrency: Int, iterations: Int, _ request: @escaping @Sendable () async throws -> Int) async throws {
        for _ in 0..<iterations {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<concurrency { group.addTask { try await request() } }
                for try await count in group { precondition(count == 10) }
            }
        }
    }
}

/// Batches of raw and Marquee requests in alternation, timed apart.
final class InterleavedPair: @unchecked Sendable {
    static let shared = InterleavedPair()

    private let lock = NSLock()
    private var rounds = 0
    private var raw: [Int: [Duration]] = [:]
    private var marquee: [Int: [Duration]] = [:]
    private var rawCPU: [Int: Double] = [:]
    private var marqueeCPU: [Int: Double] = [:]

    /// The process's user and system CPU time so far, in microseconds.
    private static func processCPU() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e6 + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
    }

    func round(concurrency: Int) async throws {
        let marqueeFirst = lock.withLock { () -> Bool in
            rounds += 1
            return rounds.isMultiple(of: 2)
        }
        let fixture = LoopbackFixture.shared
        for side in marqueeFirst ? [true, false] : [false, true] {
            let cpuBefore = Self.processCPU()
            let started = ContinuousClock.now
            try await fixture.run(concurrency: concurrency, iterations: 1) {
                side ? try await fixture.marqueeTopGrossing(concurrency: concurrency) : try await fixture.rawTopGrossing()
            }
            let took = ContinuousClock.now - started
            let cpu = Self.processCPU() - cpuBefore
            lock.withLock {
                if side {
                    marquee[concurrency, default: []].append(took)
                    marqueeCPU[concurrency, default: 0] += cpu
                } else {
                    raw[concurrency, default: []].append(took)
                    rawCPU[concurrency, default: 0] += cpu
                }
            }
        }
    }

    /// One line: each side's p50 and p99 per batch, and Marquee's throughput and p99 against raw's.
    func summary(concurrency: Int) -> String {
        let (rawTimes, marqueeTimes) = lock.withLock { (raw[concurrency, default: []].sorted(), marquee[concurrency, default: []].sorted()) }
        let (rawCPUTotal, marqueeCPUTotal) = lock.withLock { (rawCPU[concurrency, default: 0], marqueeCPU[concurrency, default: 0]) }
        guard !rawTimes.isEmpty, !marqueeTimes.isEmpty else { return "client-interleaved c\(concurrency): no samples" }
        func percentile(_ times: [Duration], _ fraction: Double) -> Double {
            let duration = times[min(times.count - 1, Int(Double(times.count) * fraction))]
            return Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
        }
        let rawP50 = percentile(rawTimes, 0.5), marqueeP50 = percentile(marqueeTimes, 0.5)
        let rawP99 = percentile(rawTimes, 0.99), marqueeP99 = percentile(marqueeTimes, 0.99)
        return String(
            format: "client-interleaved c%d batches %d raw-p50-us %.0f marquee-p50-us %.0f throughput-ratio %.3f raw-p99-us %.0f marquee-p99-us %.0f p99-ratio %.3f raw-cpu-us-per-request %.1f marquee-cpu-us-per-request %.1f",
            concurrency, rawTimes.count, rawP50, marqueeP50, rawP50 / marqueeP50, rawP99, marqueeP99, marqueeP99 / rawP99,
            rawCPUTotal / Double(rawTimes.count * concurrency), marqueeCPUTotal / Double(marqueeTimes.count * concurrency)
        )
    }
}

/// The full stack with shared exchanges over a transport that counts what reaches the wire.
final class SharedFixture: @unchecked Sendable {
    static let shared = SharedFixture()

    private let lock = NSLock()
    private var service: APIMovieService?
    private var counting: CountingTransport?
    private var batches = 0

    /// Requests on the wire per batch of 100 calls, over every batch so far.
    var requestsPerBatch: Double {
        lock.withLock { batches == 0 ? 0 : Double(counting?.count ?? 0) / Double(batches) }
    }

    func hundredCalls() async throws {
        let service = try lock.withLock { () throws -> APIMovieService in
            if let existing = self.service { return existing }
            guard let baseURL = LoopbackFixture.shared.baseURL else { throw CancellationError() }
            let counting = CountingTransport(base: AsyncHTTPClientTransport(), linkLatency: .milliseconds(2))
            let credential = Credential(accessToken: "unused-by-a-public-server", refreshToken: nil, issuedAt: Date(), expiresAt: .distantFuture)
            let context = InMemoryAPIContext(environment: APIEnvironment(.custom(try APIBaseURL(baseURL)))!, credential: credential)
            let made = APIClientStack(context: context, transport: counting, clientCredentials: APIClientCredentials(id: "marquee-dev", secret: "marquee-dev-secret")).movieService
            self.service = made
            self.counting = counting
            return made
        }
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<100 { group.addTask { try await service.movies(.topGrossing, year: 2016).count } }
            for try await count in group { precondition(count == 10) }
        }
        lock.withLock { batches += 1 }
    }
}

/// Counts the requests that reach the transport under it, each held for `linkLatency` first: the
/// time a request spends on a real link, which loopback does not have. Without it an exchange can
/// be answered before the last of 100 calls started on these 2 cores is even running, and such a
/// call was never concurrent with it.
final class CountingTransport: Transport, @unchecked Sendable {
    private let base: any Transport
    private let linkLatency: Duration
    private let lock = NSLock()
    private var sent = 0

    init(base: any Transport, linkLatency: Duration) {
        self.base = base
        self.linkLatency = linkLatency
    }

    var count: Int { lock.withLock { sent } }

    func send(_ request: APIRequest) async throws(NetworkError) -> APIResponse {
        lock.withLock { sent += 1 }
        try? await Task.sleep(for: linkLatency)
        return try await base.send(request)
    }
}

/// Clients on a stub that answers at once, to measure what the interceptors add.
enum StubFixture {
    static let endpoint = Endpoint(path: ["movies", "topGrossing", "2016"])
    static let transport = StubTransport(rules: [.any(.status(200, body: "[]"))], recordsRequests: false)
    static let bare = APIClient(baseURL: URL(string: "http://stub.invalid/api/")!, transport: transport)
    static let intercepted = stack(sharesExchanges: false)
    static let interceptedAndShared = stack(sharesExchanges: true)

    static func stack(sharesExchanges: Bool) -> APIClient {
        let credential = Credential(accessToken: "valid", refreshToken: "refresh", issuedAt: Date(), expiresAt: .distantFuture)
        let context = InMemoryAPIContext(environment: APIEnvironment(.stub, at: URL(string: "http://stub.invalid/api/")!), credential: credential)
        return APIClientStack(
            context: context, transport: transport, clientCredentials: APIClientCredentials(id: "id", secret: "secret"),
            callDeadline: nil, sharesExchanges: sharesExchanges
        ).client
    }
}

/// 10,000 synthetic movies as the API would send them.
enum DecodingFixture {
    static let body = Data(ContractJSON.list(SyntheticCatalog.movies(count: 10_000, seed: 42)).utf8)
}
