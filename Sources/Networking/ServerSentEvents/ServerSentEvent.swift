/// One event of a `text/event-stream` (Server-Sent Events), as a client dispatches it.
public struct ServerSentEvent: Sendable, Hashable {
    /// The last `id:` the stream set, at or before this event: the cursor to resume from.
    public var lastEventID: String
    /// The `event:` field; `message` when the event named none.
    public var type: String
    /// The `data:` lines, joined by line feeds.
    public var data: String

    public init(lastEventID: String, type: String = "message", data: String) {
        self.lastEventID = lastEventID
        self.type = type
        self.data = data
    }
}
