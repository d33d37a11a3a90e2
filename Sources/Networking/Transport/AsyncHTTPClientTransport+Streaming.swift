import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore

extension AsyncHTTPClientTransport: StreamingTransport {
    /// The body is AsyncHTTPClient's own, read a chunk at a time as the reader asks: nothing is
    /// copied ahead, so AsyncHTTPClient's backpressure holds (it stops reading the socket while a
    /// few chunks wait), and a server that writes faster than the reader reads is made to wait.
    public func openStream(_ request: APIRequest) async throws(NetworkError) -> StreamedResponse {
        var clientRequest = HTTPClientRequest(url: request.url.absoluteString)
        clientRequest.method = .init(rawValue: request.method.rawValue)
        for field in request.headerFields { clientRequest.headers.add(name: field.name.rawName, value: field.value) }
        let response: HTTPClientResponse
        do {
            response = try await client.execute(clientRequest, timeout: TimeAmount(request.timeout))
        } catch {
            throw TransportErrorMapping.networkError(for: error, request: request, bodyLimit: 0)
        }
        var fields = HTTPFields()
        for (name, value) in response.headers {
            if let fieldName = HTTPField.Name(name) { fields.append(HTTPField(name: fieldName, value: value)) }
        }
        let body = ResponseChunks(body: response.body, request: request)
        return StreamedResponse(status: HTTPResponse.Status(code: Int(response.status.code)), headerFields: fields, body: StreamedBody(body))
    }
}

/// AsyncHTTPClient's body as arrays of bytes, its failures as ``NetworkError``s.
private struct ResponseChunks: AsyncSequence, Sendable {
    typealias Element = [UInt8]

    let body: HTTPClientResponse.Body
    let request: APIRequest

    func makeAsyncIterator() -> Iterator { Iterator(base: body.makeAsyncIterator(), request: request) }

    struct Iterator: AsyncIteratorProtocol {
        var base: HTTPClientResponse.Body.AsyncIterator
        let request: APIRequest

        mutating func next() async throws -> [UInt8]? {
            do {
                return try await base.next().map { Array($0.readableBytesView) }
            } catch {
                throw TransportErrorMapping.networkError(for: error, request: request, bodyLimit: 0)
            }
        }
    }
}
