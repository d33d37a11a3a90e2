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
    /// How long the stream may stay silent, while its reader waits for it, before it is taken as
    /// broken (the time a reader takes between two items is not the server's silence).
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
    /// ``Item/stopped(_:)``. Nothing is done ahead of the reader: each item is made when it is
    /// asked for, so the connection is read only as fast as the items are, and what is held
    /// between two asks is bounded by ``limits`` (see `EventStreamReader`). One task reads them.
    public func items(from cursor: String?) -> AsyncStream<Item> {
        let reader = EventStreamReader(client: self, cursor: cursor)
        return AsyncStream(unfolding: { await reader.next() })
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

    static func isEventStream(_ fields: HTTPFields) -> Bool {
        fields[.contentType]?.lowercased().hasPrefix("text/event-stream") == true
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
