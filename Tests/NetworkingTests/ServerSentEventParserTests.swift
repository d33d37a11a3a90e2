import Networking
import Testing

/// The event-stream parser against the standard's rules, fed whole and cut at every byte.
@Suite("Server-Sent Events parser")
struct ServerSentEventParserTests {
    static let stream = "\u{FEFF}retry: 1500\r\n: a comment\r\nid: 7\nevent: watchlist\ndata: {\"a\":1}\ndata:second line\r\rdata: no id of its own\n\nid\nevent: catalog\ndata\n\nid: 9\u{0}\ndata: x\n\nid: 10\nevent: cut\ndata: half"

    static let expected = [
        ServerSentEvent(lastEventID: "7", type: "watchlist", data: "{\"a\":1}\nsecond line"),
        ServerSentEvent(lastEventID: "7", type: "message", data: "no id of its own"),
        ServerSentEvent(lastEventID: "", type: "catalog", data: ""),
        ServerSentEvent(lastEventID: "", type: "message", data: "x"),
    ]

    @Test("fields, comments, CR, LF and CRLF, a BOM, an emptied id, an id with NUL ignored; the unfinished event at the end is no event")
    func wholeStream() {
        var parser = ServerSentEventParser()
        #expect(parser.consume(Array(Self.stream.utf8)) == Self.expected)
        #expect(parser.retryMilliseconds == 1500)
        #expect(parser.lastEventID == "")
    }

    @Test("the same events however the bytes are cut")
    func everyCut() {
        let bytes = Array(Self.stream.utf8)
        for cut in 1..<bytes.count {
            var parser = ServerSentEventParser()
            let events = parser.consume(bytes[..<cut]) + parser.consume(bytes[cut...])
            #expect(events == Self.expected, "cut at byte \(cut)")
        }
    }

    @Test("a resumed parser starts from its cursor; a retry that is not all digits is ignored")
    func resumedAndBadRetry() {
        var parser = ServerSentEventParser(lastEventID: "41")
        #expect(parser.consume(Array("retry: 10s\ndata: a\n\n".utf8)) == [ServerSentEvent(lastEventID: "41", data: "a")])
        #expect(parser.retryMilliseconds == nil)
    }
}
