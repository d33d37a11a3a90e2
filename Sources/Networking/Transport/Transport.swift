import Foundation
import HTTPTypes

/// Moves one request over the wire and brings back the whole response.
///
/// A transport does not validate statuses, decode, retry or add credentials: that is the
/// ``APIClient``'s and its interceptors' work. Swapping the transport (a live HTTP client, a
/// stub playing scenarios) swaps the whole network layer under an unchanged client.
public protocol Transport: Sendable {
    /// Sends `request` and returns the response, whatever its status.
    ///
    /// Fails with ``NetworkError/cannotConnect(host:port:reason:)``, ``NetworkError/timedOut(after:)``,
    /// ``NetworkError/connectionLost(_:)``, ``NetworkError/bodyTooLarge(limit:)`` or
    /// ``NetworkError/cancelled`` when the calling task is cancelled.
    func send(_ request: APIRequest) async throws(NetworkError) -> APIResponse
}

/// A complete HTTP response: status, headers and the whole body.
public struct APIResponse: Sendable {
    public var status: HTTPResponse.Status
    public var headerFields: HTTPFields
    public var body: Data

    public init(status: HTTPResponse.Status, headerFields: HTTPFields = [:], body: Data = Data()) {
        self.status = status
        self.headerFields = headerFields
        self.body = body
    }

    /// The body as UTF-8 text, with invalid bytes replaced.
    public var text: String { String(decoding: body, as: UTF8.self) }
}
