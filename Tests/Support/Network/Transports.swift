import MarqueeTestSupport
import Networking

/// Runs `body` with a live transport and shuts it down afterwards.
@discardableResult
public func withTransport<Result>(
    _ configuration: AsyncHTTPClientTransport.Configuration = .init(),
    _ body: (AsyncHTTPClientTransport) async throws -> Result
) async throws -> Result {
    let transport = AsyncHTTPClientTransport(configuration: configuration)
    return try await finally(try await body(transport)) { try? await transport.shutdown() }
}
