import Foundation
import HTTPTypes

/// Keeps a Server-Sent Events stream open for as long as it is read: it reconnects after every
/// break with a growing, jittered wait (the server's `retry:` and `Retry-After` respected, never
/// less than ``shortestWait``, at most ``longestWait``), sends the last event id it handed
/// on as `Last-Event-ID`, and treats a stream that stays silent past ``stallLimit`` (the server's
/// heartbeats stopped) as broken, and one that passes its ``limits`` (a line or an event without
/// an end) as one to drop. It stops for good on an answer that says the server has no such stream
/// (`404`, `405`, `501`) or will not give one to this credential (`401` after a renewal, `403`).
public struct EventStreamClient: Sendable {
    /// What the reader is told, in order.
    public enum Item: Sendable, Equatable {
        /// The stream is being opened: at first, and again after each wait.
        case connecting
        /// The stream is open.
        case connected
        /// An event, with ``ServerSentEvent/lastEventID`` the cursor it leaves.
        case event(ServerSentEvent)
        /// The stream broke, was dropped, or could not be opened, and is opened again after
        /// `delay`, exactly the time waited.
        case reconnecting(after: Duration, reason: String)
        /// The stream will not be opened again.
        case stopped(NetworkError)
    }

    /// Opens the stream from a cursor (`nil`: from now).
    public typealias Opening = @Sendable (_ lastEventID: String?) async throws(NetworkError) -> StreamedResponse

    let open: Opening
    /// The floor: no wait before reconnecting is shorter, whatever the server asks (a `retry: 0`,
    /// a `Retry-After: 0`).
    public var shortestWait: Duration = .seconds(1)
    /// The longest wait before reconnecting, whatever the server asks; at least twice
    /// ``shortestWait``.
    public var longestWait: Duration = .seconds(60)
    /// How long the stream may stay silent before it is taken as broken.
    public var stallLimit: Duration = .seconds(45)
    /// How long a line and an event may be before the stream is dropped.
    public var limits = ServerSentEventLimits()
    /// A number in 0..<1 for the jitter; the tests fix it.
    var random: @Sendable () -> Double = { Double.random(in: 0..<1) }
    /// Waits before reconnecting; the tests count the waits instead.
    var sleep: @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }

    public init(open: @escaping Opening) {
        self.open = open
    }

    /// The items of the stream from `cursor` on, until the task reading them is cancelled or
    /// ``Item/stopped(_:)``.
    public func items(from cursor: String?) -> AsyncStream<Item> {
        let client = self
        return AsyncStream { continuation in
            let task = Task { await client.run(from: cursor, into: continuation) }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    private func run(from cursor: String?, into continuation: AsyncStream<Item>.Continuation) async {
        var lastEventID = cursor
        var breaks = 0
        var serverRetry: Duration?
        defer { continuation.finish() }
        while !Task.isCancelled {
            var asked: Duration?
            let reason: String
            continuation.yield(.connecting)
            do throws(NetworkError) {
                let response = try await open(lastEventID)
                switch response.status.code {
                case 200 where Self.isEventStream(response.headerFields):
                    continuation.yield(.connected)
                    let outcome = await read(response.body, from: lastEventID, into: continuation)
                    lastEventID = outcome.lastEventID
                    serverRetry = outcome.retry ?? serverRetry
                    if outcome.madeProgress { breaks = 0 }
                    reason = outcome.reason
                case 404, 405, 501, 403, 401:
                    continuation.yield(.stopped(.status(code: response.status.code, excerpt: "")))
                    return
                default:
                    asked = response.headerFields[.retryAfter].flatMap { RetryAfter.delay($0, now: Date()) }
                    reason = "the server answered \(response.status.code)"
                }
            } catch .cancelled {
                return
            } catch let error where error.endsAStream {
                continuation.yield(.stopped(error))
                return
            } catch {
                reason = error.description
            }
            guard !Task.isCancelled else { return }
            breaks += 1
            let wait = wait(after: breaks, asked: asked ?? serverRetry)
            continuation.yield(.reconnecting(after: wait, reason: reason))
            do { try await sleep(wait) } catch { return }
        }
    }

    /// The wait before reconnecting after the `breaks`-th break in a row, when the server `asked`
    /// for a wait (its `retry:` or `Retry-After`) or not. Equal jitter: a wait drawn between half
    /// and all of a ceiling, the ceiling twice the base at the first break and doubled at each
    /// further one, at most ``longestWait``; the base is what the server asked, but never less
    /// than ``shortestWait``, the floor. The wait is rounded up to a tenth of a second (a second
    /// from 10 s on, a millisecond below 1 s), so that a status shows what is waited.
    func wait(after breaks: Int, asked: Duration?) -> Duration {
        let base = max(shortestWait, asked ?? .zero)
        let ceiling = min(longestWait, base * (1 << min(max(breaks, 1), 16)))
        return Self.roundedUp(ceiling * (0.5 + random() / 2))
    }

    /// `duration` up to the next tenth of a second, a second from 10 s on, a millisecond below 1 s.
    static func roundedUp(_ duration: Duration) -> Duration {
        let (seconds, attoseconds) = duration.components
        let milliseconds = (Double(seconds) * 1_000 + Double(attoseconds) / 1e15).rounded(.up)
        let step: Double = milliseconds > 10_000 ? 1_000 : milliseconds > 1_000 ? 100 : 1
        return .milliseconds(Int64((milliseconds / step).rounded(.up) * step))
    }

    fileprivate struct Outcome {
        var lastEventID: String?
        var retry: Duration?
        /// Whether the stream sent anything and was not dropped: the breaks in a row end.
        var madeProgress = false
        var reason = "the stream ended"
    }

    /// Reads events until the body ends, breaks, stays silent past ``stallLimit``, or passes ``limits``.
    private func read(_ body: AsyncThrowingStream<[UInt8], any Error>, from cursor: String?, into continuation: AsyncStream<Item>.Continuation) async -> Outcome {
        let limit = stallLimit
        let limits = limits
        let progress = StreamProgress(lastEventID: cursor)
        let reason = await withTaskGroup(of: String?.self) { group in
            group.addTask {
                var parser = ServerSentEventParser(lastEventID: cursor ?? "", limits: limits)
                do {
                    for try await bytes in body {
                        for event in parser.consume(bytes) {
                            continuation.yield(.event(event))
                            progress.handedOn(event.lastEventID)
                        }
                        progress.heard(retry: parser.retryMilliseconds)
                        if let overflow = parser.overflow {
                            progress.dropped()
                            return overflow.description
                        }
                    }
                    return "the server ended the stream"
                } catch {
                    return (error as? NetworkError)?.description ?? "the stream broke"
                }
            }
            group.addTask {
                while !Task.isCancelled {
                    try? await Task.sleep(for: .milliseconds(250))
                    if progress.silence > limit { return "the stream stayed silent for \(limit)" }
                }
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? "the stream ended"
        }
        return progress.outcome(reason: reason)
    }

    private static func isEventStream(_ fields: HTTPFields) -> Bool {
        fields[.contentType]?.lowercased().hasPrefix("text/event-stream") == true
    }
}

/// What one connection of a stream got: when it last sent bytes, the last event handed on.
private final class StreamProgress: @unchecked Sendable {
    private let lock = NSLock()
    private var last = ContinuousClock.now
    private var lastEventID: String?
    private var retry: Int?
    private var heardAny = false
    private var wasDropped = false

    init(lastEventID: String?) {
        self.lastEventID = lastEventID
    }

    func handedOn(_ id: String) { lock.withLock { lastEventID = id } }

    func heard(retry: Int?) {
        lock.withLock {
            last = .now
            heardAny = true
            self.retry = retry
        }
    }

    func dropped() { lock.withLock { wasDropped = true } }

    var silence: Duration { lock.withLock { ContinuousClock.now - last } }

    fileprivate func outcome(reason: String) -> EventStreamClient.Outcome {
        lock.withLock {
            EventStreamClient.Outcome(lastEventID: lastEventID, retry: retry.map { .milliseconds($0) }, madeProgress: heardAny && !wasDropped, reason: reason)
        }
    }
}

extension NetworkError {
    /// A failure that trying again cannot mend: the stream is not opened again.
    var endsAStream: Bool {
        switch self {
        case .authenticationFailed, .invalidRoute, .redirectRefused: true
        default: false
        }
    }
}
