import Foundation
import Networking

/// A ``StubTransport`` that answers like the movie API from the reference bodies: the movie
/// paths from the fixture files, `GET auth` with the original token, and `POST auth/token`
/// with a stub credential. Paths without a fixture get the API's JSON 404.
public enum ReferenceStubs {
    /// Where the stubbed API claims to live. `.invalid` never resolves, so nothing can leak out.
    public static let baseURL = URL(string: "http://stub.marquee.invalid/api/")!

    /// The credential the stub's token endpoint issues.
    public static let tokenBody = Data(#"{"access_token":"stub-access-token","token_type":"Bearer","expires_in":3600,"refresh_token":"stub-refresh-token"}"#.utf8)

    public static func transport(
        scenario: StubScenario = .success,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) -> StubTransport {
        StubTransport(scenario: scenario, rules: rules, sleep: sleep)
    }

    public static var rules: [StubRule] {
        [
            .path(.post, "auth/token", .json(tokenBody)),
            .path(.get, "auth", .closure { _ in fixture(at: "auth.txt", contentType: "text/plain; charset=utf-8") }),
            StubRule(matching: { $0.method == .get }, response: .closure { request in
                fixture(at: apiPath(of: request.url) + ".json", contentType: "application/json")
            }),
        ]
    }

    private static func fixture(at path: String, contentType: String) -> StubResponse {
        guard let body = ReferenceBodies.body(at: path) else {
            return .status(404, body: #"{"error":"not_found","error_description":"There is no resource at /api/\#(path)."}"#)
        }
        return .response(APIResponse(status: .ok, headerFields: [.contentType: contentType], body: body))
    }

    /// The path after `/api/`, e.g. `movies/topGrossing/2016`.
    private static func apiPath(of url: URL) -> String {
        let components = url.pathComponents.filter { $0 != "/" }
        let start = components.firstIndex(of: "api").map { $0 + 1 } ?? 0
        return components[start...].joined(separator: "/")
    }
}
