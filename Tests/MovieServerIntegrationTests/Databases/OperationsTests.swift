import Foundation
import MarqueeTestSupport
import MovieServer
import MovieServerDatabases
import ServerTestSupport
import Testing

extension ServerDatabaseTests {
    /// `/health/live`, `/health/ready` and `/metrics`, as a load balancer and Prometheus use them.
    @Suite("Health and metrics")
    struct OperationsTests {
        @Test("live and ready answer 200 on every backend", arguments: Backend.allCases)
        func healthy(backend: Backend) async throws {
            try await backend.withStorage { storage in
                try await withServerClient(storage: storage) { client in
                    let live = try await client.get("/health/live")
                    #expect(live.status == 200)
                    #expect(live.json?["status"] as? String == "live")
                    // A check that misses its one-second limit on a loaded machine is a 503 by design;
                    // the server must be ready, not every single probe.
                    var ready = try await client.get("/health/ready")
                    let becameReady = try await eventually {
                        ready = try await client.get("/health/ready")
                        return ready.status == 200
                    }
                    #expect(becameReady, "\(ready.status) \(String(decoding: ready.body, as: UTF8.self))")
                    #expect(ready.json?["status"] as? String == "ready")
                    #expect(ready.headers.first(name: "cache-control") == "no-store")
                }
            }
        }

        @Test("a database's instance is not ready until its search index is read or made: the first probe says so and starts it", arguments: Backend.databases)
        func readyAfterSearchIndex(backend: Backend) async throws {
            try await backend.withStorage(searchIndexing: .inProcess) { storage in
                let indexed = try #require(storage as? any SearchIndexed)
                try await withServerClient(storage: storage, readinessTimeout: .seconds(30)) { client in
                    let first = try await client.get("/health/ready")
                    #expect(first.status == 503)
                    #expect(first.json?["status"] as? String == "search index not ready")
                    #expect(try await eventually { try await client.get("/health/ready").status == 200 }, "the probe began the index")
                    #expect(indexed.searchIndexCounts.builds + indexed.searchIndexCounts.snapshotReads == 1)
                }
            }
        }

        @Test("when the PostgreSQL database goes away, ready is 503 while live stays 200, and the error is counted")
        func notReadyWithoutDatabase() async throws {
            let cluster = try PostgresCluster.required()
            let url = try await cluster.makeDatabase()
            let storage = try await DatabaseLocation(parsing: url).open(logger: quietLogger)
            // A long readiness timeout: a probe before the drop that outlasted a short one on a
            // loaded machine would go on, fail after the drop, and count a second error. A request
            // whose connection waits on the dropped database ends at the query timeout.
            try await finally(try await withServerClient(storage: storage, readinessTimeout: .seconds(30), queryTimeout: .seconds(5)) { client in
                #expect(try await eventually { try await client.get("/health/ready").status == 200 })
                try await cluster.dropDatabase(url)
                let ready = try await client.get("/health/ready")
                #expect(ready.status == 503)
                #expect(ready.json?["status"] as? String == "database unavailable")
                #expect(try await client.get("/health/live").status == 200)
                let movie = try await client.get("/api/movies/1")
                #expect(movie.status == 503)
                let metrics = try await PrometheusText(client.get("/metrics").body)
                #expect(metrics.value("marquee_database_errors_total", ["operation": "health_check"]) == 1, "the one probe after the drop")
                #expect(metrics.value("marquee_database_errors_total", ["operation": "movie"]) == 1)
                #expect(!String(decoding: movie.body, as: UTF8.self).contains("marquee@"))
            }) { await storage.close() }
        }

        @Test("request counters move with requests, by route pattern and status; grants are counted by type")
        func countersMove() async throws {
            try await Backend.postgres.withStorage { storage in
                try await withServerClient(auth: AuthConfiguration(), storage: storage) { client in
                    let route = ["route": "/api/movies/topGrossing/{year}", "method": "GET", "status": "200"]
                    let before = try await PrometheusText(client.get("/metrics").body)
                    let token = try await AccessTokens.accessToken(from: client)
                    for year in [2014, 2015, 2016] {
                        #expect(try await client.get("/api/movies/topGrossing/\(year)", headers: [("Authorization", "Bearer \(token)")]).status == 200)
                    }
                    #expect(try await client.get("/api/movies/topGrossing/2016").status == 401)
                    let after = try await PrometheusText(client.get("/metrics").body)
                    #expect((after.value("marquee_http_requests_total", route) ?? 0) - (before.value("marquee_http_requests_total", route) ?? 0) == 3)
                    #expect(after.value("marquee_http_requests_total", route.merging(["status": "401"]) { $1 }) == 1)
                    #expect(after.value("marquee_token_grants_total", ["grant_type": "client_credentials"]) == 1)
                    #expect(after.value("marquee_http_request_duration_seconds_count", ["route": "/api/movies/topGrossing/{year}", "method": "GET"]) == 4)
                    #expect(!after.text.contains("/api/movies/topGrossing/2016"), "raw paths would let clients grow the metrics without end")

                    for path in ["/nope", "/api/nope/\(UUID().uuidString)"] {
                        #expect(try await client.get(path).status == 404)
                    }
                    let refused = try await client.get(
                        "/api/auth/token", method: .POST, headers: TokenForms.form,
                        body: "grant_type=client_credentials&client_id=marquee-dev&client_secret=wrong"
                    )
                    #expect(refused.status == 401)
                    let last = try await PrometheusText(client.get("/metrics").body)
                    #expect(last.value("marquee_http_requests_total", ["route": "unmatched", "status": "404"]) == 2, "unknown paths are one label")
                    #expect(!last.text.contains("NotFound"))
                    #expect(last.value("marquee_token_refusals_total", [:]) == 1)
                }
            }
        }
    }
}
