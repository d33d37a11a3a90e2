import Foundation
import ReferenceAPI
import Testing

/// The server against the reference bodies of the original API, byte for byte.
@Suite("Reference contract")
struct ReferenceContractTests {
    @Test("every reference path answers the reference body exactly", arguments: ReferenceBodies.paths)
    func servesReferenceBodies(path: String) async throws {
        let expected = try #require(ReferenceBodies.body(at: path))
        try await withServerClient { client in
            let answer = try await client.get(ReferenceBodies.apiPath(for: path))
            #expect(answer.status == 200)
            #expect(answer.body == expected, "body of \(path) differs from the reference")
            #expect(answer.contentType == (path.hasSuffix(".json") ? "application/json" : "text/plain; charset=utf-8"))
        }
    }
}
