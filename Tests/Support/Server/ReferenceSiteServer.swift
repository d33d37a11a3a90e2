import Foundation
import Hummingbird
import MarqueeTestSupport
import NIOConcurrencyHelpers
import ReferenceAPI

/// The original static site on a loopback port: the reference bodies at their paths, no
/// authentication. A test can hold the list answers at a ``Gate`` (to see a stored list before
/// the network's) and replace any body (to make the site's answer change).
public final class ReferenceSiteServer: Sendable {
    public let gate = Gate()
    private let replacements = NIOLockedValueBox<[String: Data]>([:])
    private let requestCount = NIOLockedValueBox(0)

    public init() {}

    /// The lists held at the gate start out passing through.
    public func run<Result>(_ body: (URL) async throws -> Result) async throws -> Result {
        await gate.open()
        return try await withLoopbackServer({ router in
            router.get("api/**") { [self] request, _ -> Response in
                requestCount.withLockedValue { $0 += 1 }
                let path = String(request.uri.path.dropFirst("/api/".count))
                if path.hasPrefix("movies/top") { try await gate.pass() }
                let body = replacements.withLockedValue { $0[path] } ?? ReferenceBodies.body(at: path + ".json")
                guard let body else { return Response(status: .notFound) }
                return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: body)))
            }
        }, { running in try await body(running.baseURL) })
    }

    /// Serves `body` at `path` (as `movies/topGrossing/2016`) from now on.
    public func replace(_ path: String, with body: Data) {
        replacements.withLockedValue { $0[path] = body }
    }

    /// The requests answered or held so far.
    public var requests: Int { requestCount.withLockedValue { $0 } }
}
