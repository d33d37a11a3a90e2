import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore

extension AsyncHTTPClientTransport: StreamingTransport {
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
        let (body, continuation) = AsyncThrowingStream<[UInt8], any Error>.makeStream()
        let reading = Task {
            do {
                for try await buffer in response.body { continuation.yield(Array(buffer.readableBytesView)) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: TransportErrorMapping.networkError(for: error, request: request, bodyLimit: 0))
            }
        }
        continuation.onTermination = { _ in reading.cancel() }
        return StreamedResponse(status: HTTPResponse.Status(code: Int(response.status.code)), headerFields: fields, body: body)
    }
}
