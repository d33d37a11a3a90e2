import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

/// A Hummingbird application serving inside this process. Call ``stop()`` to close it.
///
/// ``MovieServer/start()`` returns one; tests use ``start(host:logger:makeApplication:)`` to run
/// their own small servers the same way.
public final class RunningServer: Sendable {
    public let host: String
    public let port: Int
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    private init(host: String, port: Int, group: ServiceGroup, task: Task<Void, any Error>) {
        self.host = host
        self.port = port
        self.group = group
        self.task = task
    }

    /// `http://host:port/`.
    public var rootURL: URL {
        URL(string: "http://\(host.contains(":") ? "[\(host)]" : host):\(port)/")!
    }

    /// The movie API root, `http://host:port/api/`.
    public var baseURL: URL { rootURL.appendingPathComponent("api/") }

    /// Builds an application with `makeApplication` (which must call the given closure with the
    /// bound port once listening), runs it, and returns once the socket is bound.
    public static func start<App: ApplicationProtocol>(
        host: String,
        logger: Logger,
        makeApplication: (_ onListening: @escaping @Sendable (Int) -> Void) throws -> App
    ) async throws -> RunningServer {
        try await start(host: host, logger: logger, afterStopping: {}, makeApplication: makeApplication)
    }

    /// As ``start(host:logger:makeApplication:)``; once the application has stopped,
    /// `afterStopping` runs before the server counts as stopped.
    static func start<App: ApplicationProtocol>(
        host: String,
        logger: Logger,
        afterStopping: @escaping @Sendable () async -> Void,
        makeApplication: (_ onListening: @escaping @Sendable (Int) -> Void) throws -> App
    ) async throws -> RunningServer {
        let (ports, portContinuation) = AsyncStream<Int>.makeStream()
        let app = try makeApplication { port in
            portContinuation.yield(port)
            portContinuation.finish()
        }
        let group = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
        let task = Task {
            defer { portContinuation.finish() }
            try await group.run()
            await afterStopping()
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else {
            await group.triggerGracefulShutdown()
            try await task.value
            throw MovieServerError.stoppedBeforeListening(host: host)
        }
        return RunningServer(host: host, port: port, group: group, task: task)
    }

    /// Stops accepting connections, finishes the requests under way, and returns when closed.
    public func stop() async throws {
        await group.triggerGracefulShutdown()
        try await task.value
    }
}
