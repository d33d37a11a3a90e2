import Foundation
import HTTPTypes

/// A transport that can hold an answer open and hand its body on as it arrives: what a
/// Server-Sent Events stream needs. The request's timeout bounds the wait for the answer's head only.
public protocol StreamingTransport: Sendable {
    func openStream(_ request: APIRequest) async throws(NetworkError) -> StreamedResponse
}

/// An answer whose body is still arriving, read as it is asked for (``StreamedBody``). Letting go
/// of the body (or cancelling the task that reads it) closes the connection.
public struct StreamedResponse: Sendable {
    public var status: HTTPResponse.Status
    public var headerFields: HTTPFields
    public var body: StreamedBody

    public init(status: HTTPResponse.Status, headerFields: HTTPFields, body: StreamedBody) {
        self.status = status
        self.headerFields = headerFields
        self.body = body
    }

    public init<Chunks: AsyncSequence & Sendable>(status: HTTPResponse.Status, headerFields: HTTPFields, body: Chunks) where Chunks.Element == [UInt8] {
        self.init(status: status, headerFields: headerFields, body: StreamedBody(body))
    }
}

extension SharedExchangeTransport: StreamingTransport {
    /// A stream is never shared: each is opened on the base transport, when it can stream.
    public func openStream(_ request: APIRequest) async throws(NetworkError) -> StreamedResponse {
        guard let streaming = base as? any StreamingTransport else { throw .invalidRoute("this transport cannot hold a stream open") }
        return try await streaming.openStream(request)
    }
}
