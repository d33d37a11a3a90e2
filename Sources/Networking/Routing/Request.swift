import Foundation

/// A ``Route`` with the type its answer's JSON body decodes to, named once where the route is
/// declared: `Request<[CatalogMovie]>`. ``APIClient/send(_:)-(Request<Response>)`` returns that type.
///
/// A ``JSONReadable`` response is read with a ``JSONReader`` first, any other `Decodable` one
/// with `JSONDecoder` (``ResponseDecoding``).
public struct Request<Response: Sendable>: Route {
    public let endpoint: Endpoint
    /// Turns an accepted answer's body into the response.
    public let decode: @Sendable (Data) throws(NetworkError) -> Response

    public init(_ route: some Route) where Response: Decodable {
        endpoint = route.endpoint
        decode = { body throws(NetworkError) in try ResponseDecoding.decode(Response.self, from: body) }
    }

    /// A request read by `decode`, for an answer that is not one JSON type (an OAuth poll, whose
    /// 400 carries an error to act on).
    public init(endpoint: Endpoint, decode: @escaping @Sendable (Data) throws(NetworkError) -> Response) {
        self.endpoint = endpoint
        self.decode = decode
    }

    public init(_ route: some Route) where Response: JSONReadable {
        endpoint = route.endpoint
        decode = { body throws(NetworkError) in try ResponseDecoding.decode(Response.self, from: body) }
    }
}
