import Foundation
import HTTPTypes
import NIOConcurrencyHelpers

/// A ``Transport`` decorator that lets identical idempotent requests in flight at the same time
/// share one exchange: the same method (`GET` or `HEAD`), URL and headers, credential included,
/// put one request on the wire and every caller gets its response or its failure.
///
/// The exchange belongs to no caller: one that is cancelled leaves at once with
/// ``NetworkError/cancelled`` while the others keep waiting, and the exchange itself is cancelled
/// only when every caller has left. A request that arrives after an exchange ended starts a new one.
public final class SharedExchangeTransport: Transport {
    /// The transport the exchanges go through.
    public let base: any Transport
    private let exchanges = NIOLockedValueBox<[Key: Exchange]>([:])
    /// Numbers callers and exchanges apart; cheaper than a `UUID` each.
    private let serials = NIOLockedValueBox<Int>(0)

    public init(base: any Transport) {
        self.base = base
    }

    /// How many callers wait on an exchange now, over all exchanges.
    public var callersInFlight: Int {
        exchanges.withLockedValue { $0.values.reduce(0) { $0 + $1.callers.count } }
    }

    public func send(_ request: APIRequest) async throws(NetworkError) -> APIResponse {
        guard [.get, .head].contains(request.method), request.body == nil else { return try await base.send(request) }
        let key = Key(request)
        let caller = nextSerial()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<APIResponse, NetworkError>, Never>) in
                join(key, as: caller, continuation: continuation, request: request)
            }
        } onCancel: {
            leave(key, as: caller)
        }
        return try result.get()
    }

    private func nextSerial() -> Int {
        serials.withLockedValue { serial in
            serial += 1
            return serial
        }
    }

    private func join(_ key: Key, as caller: Int, continuation: CheckedContinuation<Result<APIResponse, NetworkError>, Never>, request: APIRequest) {
        let starts: Exchange? = exchanges.withLockedValue { exchanges in
            // Checked under the lock that `leave` takes, so a cancellation is seen either here or there.
            guard !Task.isCancelled else {
                continuation.resume(returning: .failure(.cancelled))
                return nil
            }
            if var exchange = exchanges[key] {
                exchange.callers[caller] = continuation
                exchanges[key] = exchange
                return nil
            }
            let exchange = Exchange(id: caller, callers: [caller: continuation])
            exchanges[key] = exchange
            return exchange
        }
        guard let starts else { return }
        let base = self.base
        let exchange: @Sendable () async -> Void = {
            let result: Result<APIResponse, NetworkError>
            do throws(NetworkError) {
                result = .success(try await base.send(request))
            } catch {
                result = .failure(error)
            }
            self.finish(key, id: starts.id, with: result)
        }
        // Started on this thread, up to its first wait: the request is on its way without a hop
        // to another thread first.
        let task: Task<Void, Never>
        if #available(macOS 26, *) {
            task = Task.immediate { await exchange() }
        } else {
            task = Task { await exchange() }
        }
        let abandoned = exchanges.withLockedValue { exchanges in
            guard exchanges[key]?.id == starts.id else { return true }
            exchanges[key]?.task = task
            return false
        }
        if abandoned { task.cancel() }
    }

    private func leave(_ key: Key, as caller: Int) {
        let (continuation, orphaned): (CheckedContinuation<Result<APIResponse, NetworkError>, Never>?, Task<Void, Never>?) =
            exchanges.withLockedValue { exchanges in
                guard var exchange = exchanges[key], let continuation = exchange.callers.removeValue(forKey: caller) else { return (nil, nil) }
                if exchange.callers.isEmpty {
                    exchanges[key] = nil
                    return (continuation, exchange.task)
                }
                exchanges[key] = exchange
                return (continuation, nil)
            }
        continuation?.resume(returning: .failure(.cancelled))
        orphaned?.cancel()
    }

    private func finish(_ key: Key, id: Int, with result: Result<APIResponse, NetworkError>) {
        let callers = exchanges.withLockedValue { exchanges -> [CheckedContinuation<Result<APIResponse, NetworkError>, Never>] in
            guard let exchange = exchanges[key], exchange.id == id else { return [] }
            exchanges[key] = nil
            return Array(exchange.callers.values)
        }
        for caller in callers { caller.resume(returning: result) }
    }

    /// What makes two requests the same exchange.
    private struct Key: Hashable {
        let method: String
        let url: String
        let headerFields: [String]

        init(_ request: APIRequest) {
            method = request.method.rawValue
            url = request.url.absoluteString
            headerFields = request.headerFields.map { "\($0.name.canonicalName):\($0.value)" }
        }
    }

    /// One request on the wire and the callers waiting for it.
    private struct Exchange {
        /// The serial of the caller that started it.
        let id: Int
        var callers: [Int: CheckedContinuation<Result<APIResponse, NetworkError>, Never>]
        var task: Task<Void, Never>?
    }
}
