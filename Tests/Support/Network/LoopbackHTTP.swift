import AsyncHTTPClient
import Foundation
import NIOCore

/// Plain HTTP requests to a server on loopback, for tests that check what a separate server
/// process answers (health, metrics, tokens) without going through Marquee's client.
public enum LoopbackHTTP {
    /// What the server answered.
    public struct Answer: Sendable {
        public let status: Int
        public let headers: [(String, String)]
        public let body: Data

        public var text: String { String(decoding: body, as: UTF8.self) }
        /// The string under `key` of a JSON object body.
        public func string(_ key: String) -> String? {
            (try? JSONSerialization.jsonObject(with: body) as? [String: Any])?[key] as? String
        }

        public func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }
    }

    public static func send(
        port: Int, _ path: String, method: String = "GET", headers: [(String, String)] = [], body: String? = nil,
        timeout: Duration = .seconds(30)
    ) async throws -> Answer {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.method = .init(rawValue: method)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(Int64(timeout / .seconds(1))))
        let collected = try await response.body.collect(upTo: 64 * 1024 * 1024)
        return Answer(
            status: Int(response.status.code),
            headers: response.headers.map { ($0.name, $0.value) },
            body: Data(collected.readableBytesView)
        )
    }
}
