import AsyncHTTPClient
import Foundation
import MovieServer
import NIOCore
import NIOHTTP1
import ServerTestSupport

/// A raw HTTP view of a running server, for checking bytes, statuses and headers exactly.
struct ServerClient {
    let server: TestMovieServer

    struct Answer {
        let status: Int
        let contentType: String?
        let headers: HTTPHeaders
        let body: Data

        var json: [String: Any]? { try? JSONSerialization.jsonObject(with: body) as? [String: Any] }
    }

    func get(_ path: String, method: HTTPMethod = .GET, headers: [(String, String)] = [], body: String? = nil, timeout: Int64 = 60) async throws -> Answer {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(server.port)\(path)")
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(timeout))
        let body = try await response.body.collect(upTo: 10 * 1024 * 1024)
        return Answer(
            status: Int(response.status.code),
            contentType: response.headers.first(name: "content-type"),
            headers: response.headers,
            body: Data(body.readableBytesView)
        )
    }
}

func withServerClient<Result>(
    catalog: Catalog? = nil,
    auth: AuthConfiguration = .publicAccess,
    maxAge: Duration = .seconds(60),
    storage: (any ServerStorage)? = nil,
    readinessTimeout: Duration = .seconds(1),
    queryTimeout: Duration = generousQueryTimeout,
    feed: FeedSettings = FeedSettings(),
    trustedProxies: TrustedProxies = .none,
    _ body: (ServerClient) async throws -> Result
) async throws -> Result {
    try await withMovieServer(
        catalog: catalog, auth: auth, maxAge: maxAge, storage: storage, readinessTimeout: readinessTimeout, queryTimeout: queryTimeout, feed: feed,
        trustedProxies: trustedProxies
    ) {
        try await body(ServerClient(server: $0))
    }
}
