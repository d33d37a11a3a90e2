import Foundation
import MarqueeTestSupport
import NetworkTestSupport
import ServerTestSupport
import Testing

/// `marquee` and `marquee serve` exporting traces by OTLP to a stand-in collector, as the `OTEL_*`
/// environment asks.
@Suite("Traces from the terminal to the database", .postgresCluster)
struct TracingTests {
    private static let catalog = #"[{"name":"Heat","id":77,"year":1995,"releaseDate":"1995-12-15","grossing":187436818,"rating":8.3,"cast":[{"name":"Al Pacino"}]},{"name":"Heathers","id":78,"year":1989,"releaseDate":"1989-03-31","grossing":1108462,"rating":7.2,"cast":[{"name":"Winona Ryder"}]}]"#

    /// A SQLite database (or a PostgreSQL one) holding the two movies, imported by `marquee catalog import`.
    private func database(_ marquee: MarqueeProcess, postgres: Bool = false) async throws -> String {
        let folder = TestFolders.temporary.appendingPathComponent("tracing-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("catalog.json")
        try Data(Self.catalog.utf8).write(to: file)
        let database = postgres ? try await PostgresCluster.required().makeDatabase() : folder.appendingPathComponent("movies.sqlite").path
        let imported = try await marquee.run(["catalog", "import", file.path, "--database", database])
        #expect(imported.status == 0, "\(imported.standardError)")
        return database
    }

    @Test("one trace runs from a marquee command through the server's request into its database work, by the semantic conventions", arguments: [false, true])
    func oneTrace(postgres: Bool) async throws {
        let collector = try await StandInCollector.start()
        defer { collector.stop() }
        var marquee = MarqueeProcess()
        let database = try await database(marquee, postgres: postgres)
        marquee.environment.merge(collector.environment) { $1 }
        let (server, port) = try await marquee.serve(["--port", "0", "--public", "--database", database])
        let searched = try await marquee.run(["search", "heat", "--env", "http://127.0.0.1:\(port)/api/"])
        #expect(searched.status == 0, "\(searched.standardError)")
        #expect(searched.standardOutput.contains("Heat (1995)"))

        let spans = try await collector.spans { spans in
            let requests = Set(spans.filter { $0.service == "marquee" && $0.kind == 3 }.map(\.spanID))
            return spans.contains { $0.service == "marquee" && $0.name == "marquee search" }
                && spans.contains { $0.attributes["db.operation.name"] == "search" }
                && spans.contains { $0.service == "marquee-server" && requests.contains($0.parentSpanID) }
        }
        #expect(spans.allSatisfy { !$0.parentSpanID.isEmpty || $0.service == "marquee" }, "the server's own rounds are not traces of their own: \(spans)")
        let command = try #require(spans.first { $0.service == "marquee" && $0.name == "marquee search" }, "\(spans)")
        let request = try #require(spans.first { $0.service == "marquee" && $0.kind == 3 && $0.parentSpanID == command.spanID }, "\(spans)")
        #expect(request.attributes["http.request.method"] == "GET")
        #expect(request.attributes["url.path"] == "/api/movies")
        #expect(request.attributes["server.port"] == "\(port)")
        #expect(request.attributes["http.response.status_code"] == "200")
        let served = try #require(spans.first { $0.service == "marquee-server" && $0.parentSpanID == request.spanID }, "\(spans)")
        #expect(served.traceID == command.traceID)
        #expect(served.kind == 2)
        #expect(served.attributes["http.route"] == "/api/movies")
        let children = spans.filter { $0.service == "marquee-server" && $0.parentSpanID == served.spanID }
        #expect(Set(children.map(\.name)) == ["catalog_version", "search"], "the request read the catalogue's version, then searched: \(children)")
        let work = try #require(children.first { $0.name == "search" }, "\(spans)")
        #expect(work.traceID == command.traceID)
        #expect(work.kind == 3)
        if postgres {
            let location = try #require(URL(string: database))
            #expect(work.attributes["db.system.name"] == "postgresql")
            #expect(work.attributes["db.namespace"] == location.lastPathComponent)
            #expect(work.attributes["server.address"] == location.host)
            #expect(work.attributes["server.port"] == location.port.map(String.init))
        } else {
            #expect(work.attributes["db.system.name"] == "sqlite")
            #expect(work.attributes["db.namespace"] == database)
        }
        #expect(work.attributes["db.operation.name"] == "search")
        #expect(command.parentSpanID.isEmpty, "the command's span is the trace's root")
        #expect(await server.signal() == 0)
    }

    @Test("a request's span continues the trace its traceparent names; a malformed one starts a new trace and is answered all the same")
    func incomingTraceparent() async throws {
        let collector = try await StandInCollector.start()
        defer { collector.stop() }
        var marquee = MarqueeProcess()
        let database = try await database(marquee)
        marquee.environment.merge(collector.environment) { $1 }
        let (server, port) = try await marquee.serve(["--port", "0", "--public", "--database", database])
        let trace = "4bf92f3577b34da6a3ce929d0e0e4736", parent = "00f067aa0ba902b7"
        for _ in 0..<2 {
            let answer = try await LoopbackHTTP.send(port: port, "/api/movies/77", headers: [("traceparent", "00-\(trace)-\(parent)-01")])
            #expect(answer.status == 200)
        }
        _ = try await LoopbackHTTP.send(port: port, "/api/movies?query=heat&code=s3cr3t-code&state=s3cr3t-state", headers: [("traceparent", "00-\(trace)-\(parent)-01")])
        let hostile = try await LoopbackHTTP.send(port: port, "/api/movies/78", headers: [("traceparent", "00-" + String(repeating: "z", count: 4000) + "-01")])
        #expect(hostile.status == 200)
        let spans = try await collector.spans { spans in
            spans.filter { $0.traceID == trace && $0.parentSpanID == parent }.count >= 3 && spans.contains { $0.attributes["url.path"] == "/api/movies/78" }
        }
        let continued = spans.filter { $0.service == "marquee-server" && $0.traceID == trace && $0.parentSpanID == parent }
        #expect(continued.filter { $0.attributes["url.path"] == "/api/movies/77" }.count == 2, "both requests were traced, the second one too though the event loop kept its answer: \(spans)")
        let searched = try #require(continued.first { $0.attributes["url.path"] == "/api/movies" }, "\(spans)")
        let query = searched.attributes["url.query"] ?? ""
        #expect(query.contains("query=heat") && query.contains("code=REDACTED") && query.contains("state=REDACTED"), "\(query)")
        #expect(!spans.contains { $0.attributes.values.contains { $0.contains("s3cr3t") } }, "a sign-in code never reaches a span")
        let fresh = try #require(spans.first { $0.attributes["url.path"] == "/api/movies/78" })
        #expect(fresh.traceID != trace && fresh.parentSpanID.isEmpty)
        #expect(await server.signal() == 0)
    }

    @Test("without a collector in the environment, or with OTEL_SDK_DISABLED, nothing is exported, and the event loop answers as before")
    func offUnlessAsked() async throws {
        let collector = try await StandInCollector.start()
        defer { collector.stop() }
        for extra in [["OTEL_SERVICE_NAME": "quiet"], collector.environment.merging(["OTEL_SDK_DISABLED": "true"]) { $1 }] {
            var marquee = MarqueeProcess()
            let database = try await database(marquee)
            marquee.environment.merge(extra) { $1 }
            let (server, port) = try await marquee.serve(["--port", "0", "--public", "--database", database])
            for _ in 0..<3 {
                #expect(try await LoopbackHTTP.send(port: port, "/api/movies/77", headers: [("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")]).status == 200)
            }
            let metrics = PrometheusText(try await LoopbackHTTP.send(port: port, "/metrics").body)
            #expect((metrics.value("marquee_http_event_loop_answers_total", [:]) ?? 0) >= 2, "untraced, the kept answers come from the event loop")
            let searched = try await marquee.run(["search", "heat", "--env", "http://127.0.0.1:\(port)/api/"])
            #expect(searched.status == 0)
            #expect(await server.signal() == 0, "stopped, so anything queued would have been sent")
        }
        #expect(collector.exports == 0)
    }

    @Test("settings that cannot export stop serve and a command with one line", arguments: [
        ["OTEL_TRACES_EXPORTER": "zipkin"], ["OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"],
    ])
    func unusableSettings(settings: [String: String]) async throws {
        let marquee = MarqueeProcess()
        let environment = settings.merging(["OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:9"]) { $1 }
        for arguments in [["serve", "--port", "0"], ["search", "heat", "--env", "http://127.0.0.1:9"]] {
            let outcome = try await marquee.run(arguments, environment: environment)
            #expect(outcome.status != 0)
            #expect(outcome.errorLines.count == 1, "\(outcome.standardError)")
            #expect(outcome.standardError.contains("tracing cannot start with OTEL_TRACES_EXPORTER="), "\(outcome.standardError)")
        }
    }
}
