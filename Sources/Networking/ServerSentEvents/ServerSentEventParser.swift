/// Reads a `text/event-stream` as it arrives, in chunks cut anywhere, following the WHATWG
/// HTML standard's rules for interpreting an event stream: lines end in CR, LF or CRLF; `:`
/// starts a comment; `data`, `event`, `id` and `retry` are the fields; a blank line dispatches
/// the event (none when it has no data). What is left when the stream ends is not an event.
///
/// It holds at most a line and an event's data within its ``ServerSentEventLimits``: a stream that
/// passes them sets ``overflow``, and from then on the parser keeps and reads nothing.
///
/// mattt/EventSource has such a parser, but that package's one module needs `URLSession`'s
/// byte streams, which Foundation on Linux lacks, so it does not build here.
public struct ServerSentEventParser: Sendable {
    /// The last `id:` seen; it stays across events until another one.
    public private(set) var lastEventID = ""
    /// The last `retry:` the server sent, in milliseconds: how long to wait before reconnecting.
    public private(set) var retryMilliseconds: Int?
    /// What the parser holds at most.
    public let limits: ServerSentEventLimits
    /// Why the parser stopped reading, once a line or an event passed its limit.
    public private(set) var overflow: ServerSentEventOverflow?

    private var line: [UInt8] = []
    private var data: [UInt8] = []
    private var hasData = false
    private var type = ""
    private var pendingID: String?
    private var afterCarriageReturn = false
    private var atStart = true

    public init(lastEventID: String = "", limits: ServerSentEventLimits = ServerSentEventLimits()) {
        self.lastEventID = lastEventID
        self.limits = limits
    }

    /// The bytes held now: the line under way, and the event's data, type and id so far.
    public var heldBytes: Int {
        line.count + data.count + type.utf8.count + (pendingID?.utf8.count ?? 0)
    }

    /// Reads `bytes`, and returns the events they complete, up to an ``overflow``.
    public mutating func consume(_ bytes: some Sequence<UInt8>) -> [ServerSentEvent] {
        guard overflow == nil else { return [] }
        if let events = bytes.withContiguousStorageIfAvailable({ consume(contiguous: $0) }) { return events }
        return Array(bytes).withUnsafeBufferPointer { consume(contiguous: $0) }
    }

    /// Takes each line whole up to its end, rather than a byte at a time.
    private mutating func consume(contiguous bytes: UnsafeBufferPointer<UInt8>) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        var start = bytes.startIndex
        while start < bytes.endIndex, overflow == nil {
            if afterCarriageReturn {
                afterCarriageReturn = false
                if bytes[start] == 0x0A {
                    start += 1
                    continue
                }
            }
            guard let end = bytes[start...].firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) else {
                extendLine(with: bytes[start...])
                break
            }
            guard extendLine(with: bytes[start..<end]) else { break }
            afterCarriageReturn = bytes[end] == 0x0D
            if let event = endLine() { events.append(event) }
            start = end + 1
        }
        return events
    }

    /// Adds to the line under way, unless that takes it past its limit.
    @discardableResult
    private mutating func extendLine(with bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        guard line.count + bytes.count <= limits.lineBytes else {
            stop(.lineTooLong(limit: limits.lineBytes))
            return false
        }
        line.append(contentsOf: bytes)
        return true
    }

    /// Stops reading for good, and lets go of everything held.
    private mutating func stop(_ reason: ServerSentEventOverflow) {
        overflow = reason
        line = []
        data = []
        hasData = false
        type = ""
        pendingID = nil
    }

    private mutating func endLine() -> ServerSentEvent? {
        defer { line.removeAll(keepingCapacity: true) }
        if atStart {
            atStart = false
            if line.starts(with: [0xEF, 0xBB, 0xBF]) { line.removeFirst(3) }
        }
        guard !line.isEmpty else { return dispatch() }
        if line[0] == UInt8(ascii: ":") { return nil }
        let name: ArraySlice<UInt8>, value: ArraySlice<UInt8>
        if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            name = line[..<colon]
            let rest = line[(colon + 1)...]
            value = rest.first == UInt8(ascii: " ") ? rest.dropFirst() : rest
        } else {
            name = line[...]
            value = []
        }
        switch String(decoding: name, as: UTF8.self) {
        case "data":
            guard data.count + (hasData ? 1 : 0) + value.count <= limits.eventBytes else {
                stop(.eventTooLarge(limit: limits.eventBytes))
                return nil
            }
            if hasData { data.append(0x0A) }
            data.append(contentsOf: value)
            hasData = true
        case "event":
            type = String(decoding: value, as: UTF8.self)
        case "id":
            if !value.contains(0) { pendingID = String(decoding: value, as: UTF8.self) }
        case "retry":
            if !value.isEmpty, value.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }), value.count < 10 {
                retryMilliseconds = Int(String(decoding: value, as: UTF8.self))
            }
        default:
            break
        }
        return nil
    }

    private mutating func dispatch() -> ServerSentEvent? {
        if let pendingID { lastEventID = pendingID }
        defer {
            data.removeAll(keepingCapacity: true)
            hasData = false
            type = ""
            pendingID = nil
        }
        guard hasData else { return nil }
        return ServerSentEvent(lastEventID: lastEventID, type: type.isEmpty ? "message" : type, data: String(decoding: data, as: UTF8.self))
    }
}
