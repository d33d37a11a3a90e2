import Foundation
import MovieContract
import MovieServer
import Testing

/// `GET /health/ready` waits for the database as long as the server is told (`--ready-timeout`).
@Suite("Readiness timeout")
struct ReadinessTimeoutTests {
    @Test("a database slower than the default second is unavailable; with a longer timeout the server is ready")
    func waitsAsLongAsTold() async throws {
        let storage = MemoryStorage(catalog: try Catalog.reference(), probes: MemoryStorageProbes(healthDelay: .milliseconds(1_500), catalogueMayChange: true))
        try await withServerClient(storage: storage) { client in
            let ready = try await client.get("/health/ready", timeout: 30)
            #expect(ready.status == 503)
            #expect(ready.json?["status"] as? String == "database unavailable")
        }
        try await withServerClient(storage: storage, readinessTimeout: .seconds(10)) { client in
            let ready = try await client.get("/health/ready", timeout: 30)
            #expect(ready.status == 200)
            #expect(ready.json?["status"] as? String == "ready")
        }
    }
}
