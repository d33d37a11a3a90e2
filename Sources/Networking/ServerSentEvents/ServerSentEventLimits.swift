/// How much of an event stream a ``ServerSentEventParser`` holds at most: a line until its end
/// arrives, and an event's data until the blank line that dispatches it. A stream that passes
/// either is not read further (``ServerSentEventOverflow``), so a server, or anything between,
/// cannot make the client keep what it never ends.
///
/// The defaults leave ample room for the movie API's largest event, a watchlist change: a note of
/// at most 1,000 code points (4,000 bytes of UTF-8 at most) and a device of at most 100 bytes,
/// in one `data:` line of about 4.3 KB.
public struct ServerSentEventLimits: Sendable, Hashable {
    /// The most bytes of one line, without its end: 64 KiB by default.
    public var lineBytes: Int
    /// The most bytes of one event's data (its `data:` lines joined by line feeds): 1 MiB by default.
    public var eventBytes: Int

    public init(lineBytes: Int = 64 * 1024, eventBytes: Int = 1024 * 1024) {
        self.lineBytes = lineBytes
        self.eventBytes = eventBytes
    }
}

/// Why a ``ServerSentEventParser`` stopped reading a stream.
public enum ServerSentEventOverflow: Error, Sendable, Hashable, CustomStringConvertible {
    /// A line went past ``ServerSentEventLimits/lineBytes`` without ending.
    case lineTooLong(limit: Int)
    /// An event's data went past ``ServerSentEventLimits/eventBytes`` without a blank line.
    case eventTooLarge(limit: Int)

    public var description: String {
        switch self {
        case let .lineTooLong(limit): "the server sent a line over \(Self.size(limit))"
        case let .eventTooLarge(limit): "the server sent an event over \(Self.size(limit))"
        }
    }

    /// `64 KiB`, `1 MiB`, or a number of bytes.
    static func size(_ bytes: Int) -> String {
        if bytes >= 1 << 20, bytes.isMultiple(of: 1 << 20) { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10, bytes.isMultiple(of: 1 << 10) { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }
}
