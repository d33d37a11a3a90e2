/// What the server's live feed says, decoded: each with the cursor it leaves, which a client
/// keeps so that it resumes after it.
public enum LiveUpdate: Sendable, Hashable {
    /// The stream is open and starts after `cursor`.
    case ready(cursor: String)
    /// One movie of the signed-in person's watchlist changed: added (or its note changed), or
    /// removed (`removed`, then `item.note` is empty).
    case watchlist(WatchlistItem, removed: Bool, cursor: String)
    /// The catalogue is at a new version: what is shown of it may have changed.
    case catalog(version: Int64, cursor: String)
    /// One record of the person's shelf beyond the watchlist (a rating, a diary entry, …) changed.
    case shelf(ShelfLiveChange, cursor: String)
    /// The events since the client's cursor are gone: what it shows must be fetched again.
    case reset(cursor: String)

    public var cursor: String {
        switch self {
        case let .ready(cursor), let .watchlist(_, _, cursor), let .catalog(_, cursor), let .reset(cursor), let .shelf(_, cursor): cursor
        }
    }
}

/// The state of the live feed, as a screen or a command shows it.
public enum LiveStatus: Sendable, Hashable {
    case connecting
    case live
    /// The stream broke, was dropped or could not be opened, for `reason`; it is opened again
    /// after `delay`, the time the feed waits.
    case reconnecting(after: Duration, reason: String)
    /// The stream is open, but what it applies to could not be brought in step (the list could
    /// not be fetched); it is tried again with the next update.
    case behind(String)
    /// It will not be opened again (the server has no feed).
    case off(String)
    /// It will not be opened again: the person's sign-in has ended (the server refused to renew
    /// it), for `reason`. A screen shows its sign-in again.
    case signedOut(String)

    /// `live`, `reconnecting in 1.4 s: the server ended the stream`, …: what a status line says.
    public var description: String {
        switch self {
        case .connecting: "connecting"
        case .live: "live"
        case let .reconnecting(delay, reason): "reconnecting in \(Self.seconds(delay)): \(reason)"
        case let .behind(reason): "live, but \(reason)"
        case let .off(reason): "not live: \(reason)"
        case let .signedOut(reason): "not live: \(reason)"
        }
    }

    /// `1 s`, `1.4 s`, `37 s` (`20 ms` below a second): as precise as the feed's waits are.
    static func seconds(_ delay: Duration) -> String {
        let (seconds, attoseconds) = delay.components
        let milliseconds = max(0, Int64((Double(seconds) * 1_000 + Double(attoseconds) / 1e15).rounded()))
        if milliseconds < 1_000 { return "\(milliseconds) ms" }
        let tenths = (milliseconds + 50) / 100
        return tenths.isMultiple(of: 10) ? "\(tenths / 10) s" : "\(tenths / 10).\(tenths % 10) s"
    }
}

/// The server's live feed for one reader, as the app depends on it.
public protocol LiveFeed: Sendable {
    /// The updates after `cursor` (`nil`: from now), and the feed's status as it changes; ends
    /// when the task reading it is cancelled or the feed stops for good.
    func updates(after cursor: String?) -> AsyncStream<LiveFeedItem>
}

/// One item of a ``LiveFeed``.
public enum LiveFeedItem: Sendable, Hashable {
    case update(LiveUpdate)
    case status(LiveStatus)
}
