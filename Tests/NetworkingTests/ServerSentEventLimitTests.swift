import Networking
import Testing

/// What the parser keeps of a stream that never ends a line or an event: never more than its
/// limits, and nothing once a limit is passed.
@Suite("Server-Sent Events parser limits")
struct ServerSentEventParserLimitTests {
    static let limits = ServerSentEventLimits(lineBytes: 1_024, eventBytes: 4_096)

    @Test("the default limits are 64 KiB a line and 1 MiB an event, and the server's largest watchlist event fits both with room")
    func defaults() {
        let limits = ServerSentEventLimits()
        #expect(limits.lineBytes == 65_536 && limits.eventBytes == 1_048_576)
        // A note of 1,000 code points of four bytes each, a device of 100 bytes, as the server frames them.
        let note = String(repeating: "\u{1F3AC}", count: 1_000), device = String(repeating: "d", count: 100)
        let data = #"{"movieId":2147483647,"note":"\#(note)","changedAt":"2026-11-26T09:30:00.000Z","device":"\#(device)","removed":false}"#
        var parser = ServerSentEventParser()
        let events = parser.consume(Array("id: 9223372036854775807\nevent: watchlist\ndata: \(data)\n\n".utf8))
        #expect(events.map(\.data) == [data])
        #expect(parser.overflow == nil)
        #expect(data.utf8.count < limits.lineBytes / 10, "the largest event takes less than a tenth of a line")
    }

    @Test("a line of exactly the limit is read; one byte more drops the stream, with the reason")
    func lineAtTheLimit() {
        var parser = ServerSentEventParser(limits: Self.limits)
        let value = String(repeating: "x", count: 1_024 - "data: ".count)
        #expect(parser.consume(Array("data: \(value)\n\n".utf8)).map(\.data) == [value])
        #expect(parser.consume(Array("data: \(value)x\n\n".utf8)).isEmpty)
        #expect(parser.overflow == .lineTooLong(limit: 1_024))
        #expect(parser.overflow?.description == "the server sent a line over 1 KiB")
        #expect(ServerSentEventParser().limits.lineBytes == 65_536)
        #expect(ServerSentEventOverflow.lineTooLong(limit: 65_536).description == "the server sent a line over 64 KiB")
        #expect(ServerSentEventOverflow.eventTooLarge(limit: 1_048_576).description == "the server sent an event over 1 MiB")
    }

    @Test("an endless line, fed 10 MB in chunks of any size: the parser never holds more than a line's limit, stops at it, and keeps nothing after")
    func endlessLine() {
        var parser = ServerSentEventParser(limits: Self.limits)
        #expect(parser.consume(Array("id: 1\nevent: watchlist\ndata: {}\n\ndata: ".utf8)).count == 1)
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 333)
        var fed = 0, mostHeld = 0
        while fed < 10_000_000, parser.overflow == nil {
            _ = parser.consume(chunk)
            fed += chunk.count
            mostHeld = max(mostHeld, parser.heldBytes)
        }
        #expect(parser.overflow == .lineTooLong(limit: 1_024))
        #expect(mostHeld <= 1_024)
        #expect(fed < 2_048, "stopped at the limit, not at the end of the 10 MB")
        #expect(parser.heldBytes == 0)
        #expect(parser.consume(Array("\n\ndata: late\n\n".utf8)).isEmpty, "nothing is read after the stream was dropped")
        #expect(parser.lastEventID == "1")
    }

    @Test("one chunk far past the line's limit is not copied in first")
    func oneHugeChunk() {
        var parser = ServerSentEventParser(limits: Self.limits)
        _ = parser.consume([UInt8](repeating: UInt8(ascii: "x"), count: 5_000_000))
        #expect(parser.overflow == .lineTooLong(limit: 1_024))
        #expect(parser.heldBytes == 0)
    }

    @Test("endless data lines without a blank line: the event's data is held up to its limit, then the stream is dropped")
    func endlessDataLines() {
        var parser = ServerSentEventParser(limits: Self.limits)
        let line = Array("data: 0123456789abcdef\n".utf8)
        var mostHeld = 0, lines = 0
        while lines < 1_000_000, parser.overflow == nil {
            _ = parser.consume(line)
            lines += 1
            mostHeld = max(mostHeld, parser.heldBytes)
        }
        #expect(parser.overflow == .eventTooLarge(limit: 4_096))
        #expect(mostHeld <= 4_096)
        #expect(lines < 300, "4,096 bytes of 17-byte data lines: stopped after about 240")
        #expect(parser.heldBytes == 0)
    }

    @Test("the events a chunk completes before a limit is passed are handed on")
    func eventsBeforeTheOverflow() {
        var parser = ServerSentEventParser(limits: Self.limits)
        let events = parser.consume(Array("id: 4\ndata: a\n\nid: 5\ndata: b\n\ndata: \(String(repeating: "y", count: 2_000))\n".utf8))
        #expect(events.map(\.lastEventID) == ["4", "5"])
        #expect(parser.overflow == .lineTooLong(limit: 1_024))
    }

    @Test("data lines that reach the event's limit only with their joining line feeds: at the limit they are read, a byte past it drops the stream")
    func joiningLineFeedsCount() {
        let full = String(repeating: "data: \(String(repeating: "z", count: 1_018))\n", count: 4)
        var atLimit = ServerSentEventParser(limits: Self.limits)
        let events = atLimit.consume(Array((full + "data: \(String(repeating: "z", count: 20))\n\n").utf8))
        #expect(events.first?.data.utf8.count == 4_096, "five values and the four line feeds between them")
        #expect(atLimit.overflow == nil)
        var past = ServerSentEventParser(limits: Self.limits)
        #expect(past.consume(Array((full + "data: \(String(repeating: "z", count: 21))\n\n").utf8)).isEmpty)
        #expect(past.overflow == .eventTooLarge(limit: 4_096))
    }
}
