/// A request an API allows, named by the API binding.
///
/// An API module declares its routes as one type (usually an enum) and the client sends
/// nothing else: there is no way to hand it a free-form URL.
public protocol Route: Sendable {
    var endpoint: Endpoint { get }
}

extension Endpoint: Route {
    public var endpoint: Endpoint { self }
}
