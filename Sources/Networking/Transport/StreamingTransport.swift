import Foundation
import HTTPTypes

/// A transport that can hold an answer open and hand its body on as it arrives: what a
/// Server-Sent Events stream needs. The request's timeout bounds the wait for the answer's head only.
public protocol StreamingTransport: Sendable {
    func openStream(_ request: APIRequest) async throws(NetworkError) -> StreamedResponse
}

/// An answer whose body is still arriving. Ending the iteration (or cancelling its task) closes
/// the connection.
public struct StreamedResponse: Sendable {
    public var status: HTTPResponse.Status
    public var headerFields: HTTPFields
    public var body: AsyncThrowingStream<[UInt8], any Error>

    public init(status: HTTPResponse.Status, headerFields: HTTPFields, body: AsyncThrowingStream<[UInt8], any Error>) {
        self.status = status
        self.headerFields = headerFields
        self.body = body
    }
}

extension SharedExchangeTransport: StreamingTransport {
    /// A stream is never shared: each is opened on the base transport, when it can stream.
    public func openStream(_ request: APIRequest) async throws(NetworkError) -> StreamedResponse {
        guard let streaming = base as? any StreamingTransport else { throw .invalidRoute("this transport cannot hold a stream open") }
        return try await streaming.openStream(request)
    }
}
