import Foundation
@testable import MovieServer
import Testing

/// OperatingTheServer (MovieServer.docc), "The response cache": a database's catalogue version is asked at most once a second, and so a new catalogue
/// is seen within about a second.
@Suite("Catalogue version re-check")
struct CatalogueVersionRecheckTests {
    @Test("over at least four and a half seconds of requests, the version is asked about once a second: not more, not less")
    func onceASecond() async throws {
        let storage = MemoryStorage(catalog: try Catalog.reference(), probes: MemoryStorageProbes(catalogueMayChange: true))
        try await withServerClient(storage: storage) { client in
            let started = ContinuousClock.now
            var requests = 0
            while ContinuousClock.now - started < .milliseconds(4_500) || requests < 10 {
                let status = try await client.get("/api/movies/6").status
                #expect(status == 200)
                requests += 1
            }
            let elapsed = (ContinuousClock.now - started) / .seconds(1)
            let asks = storage.catalogueVersionAsks
            // Requests that go on for 4.5 s or more ask at 0 s, again after 1 s, and again after 2 s
            // at the latest, with a second to spare for a request held up by a busy machine;
            // never more than once a second.
            #expect(asks >= 3, "\(asks) asks in \(elapsed) s for \(requests) requests")
            #expect(asks <= Int(elapsed) + 1, "\(asks) asks in \(elapsed) s for \(requests) requests")
        }
    }
}
