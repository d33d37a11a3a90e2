import Foundation
import Hummingbird

/// `GET /api/openapi.yaml`: the OpenAPI 3.1 document of this API, bundled with the server.
struct OpenAPIRoute: Sendable {
    private let document: ByteBuffer

    init() throws {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml") else {
            throw CatalogError.unreadable(file: "openapi.yaml", reason: "the bundled OpenAPI document is missing from the build")
        }
        document = ByteBuffer(bytes: try Data(contentsOf: url))
    }

    func register<Context: RequestContext>(on router: some RouterMethods<Context>) {
        router.get("openapi.yaml") { [document] _, _ in
            Response(status: .ok, headers: [.contentType: "application/yaml"], body: .init(byteBuffer: document))
        }
    }
}
