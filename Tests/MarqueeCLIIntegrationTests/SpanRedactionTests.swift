import Foundation
import MarqueeTestSupport
@testable import MovieServer
import NetworkTestSupport
import Testing

/// What `marquee serve` exports to a stand-in collector for requests that carry secrets in their
/// query, as an attacker's or a careless client's requests do.
@Suite("Secrets kept out of the server's spans")
struct SpanRedactionTests {
    /// One query holding every secret-bearing name of the list, each spelled by `spell`, with a
    /// value that names it, around a parameter that is no secret.
    static func query(_ spell: @Sendable (String) -> String) -> String {
        let secrets = RequestSpans.redactedParameters.sorted().map { "\(spell($0))=s3cr3t-\($0)" }
        return (secrets.prefix(1) + ["query=heat"] + secrets.dropFirst() + ["client_secret=s3cr3t-last"]).joined(separator: "&")
    }

    static let spellings: [@Sendable (String) -> String] = [
        { $0 },
        { $0.uppercased() },
        { $0.replacingOccurrences(of: "_", with: "%5F").replacingOccurrences(of: "o", with: "%6f") },
    ]

    @Test("no value of a secret-bearing query parameter reaches the collector, whatever its place, case or encoding")
    func querySecretsRedacted() async throws {
        let collector = try await StandInCollector.start()
        defer { collector.stop() }
        var marquee = MarqueeProcess()
        marquee.environment.merge(collector.environment) { $1 }
        let (server, port) = try await marquee.serve(["--port", "0", "--public"])
        for spell in Self.spellings {
            _ = try await LoopbackHTTP.send(port: port, "/api/movies?" + Self.query(spell))
        }
        let spans = try await collector.spans { spans in
            spans.filter { $0.service == "marquee-server" && $0.attributes["url.path"] == "/api/movies" }.count >= Self.spellings.count
        }
        let searched = spans.filter { $0.attributes["url.path"] == "/api/movies" }
        #expect(searched.allSatisfy { $0.attributes["url.query"]?.contains("query=heat") == true }, "\(searched)")
        #expect(searched.allSatisfy { $0.attributes["url.query"]?.contains("=REDACTED") == true }, "\(searched)")
        #expect(!spans.contains { $0.attributes.values.contains { $0.contains("s3cr3t") } }, "\(spans)")
        #expect(await server.signal() == 0)
    }
}
