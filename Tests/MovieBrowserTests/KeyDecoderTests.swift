import MovieBrowser
import Testing

@Suite("Key decoding")
struct KeyDecoderTests {
    let decoder = KeyDecoder()

    @Test("arrows, paging and Home/End in the CSI and SS3 forms terminals send")
    func escapeSequences() {
        let bytes = Array("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D\u{1B}[5~\u{1B}[6~\u{1B}[H\u{1B}[F\u{1B}[1~\u{1B}[4~\u{1B}OA\u{1B}[Z".utf8)
        #expect(decoder.keys(in: bytes) == [.up, .down, .right, .left, .pageUp, .pageDown, .home, .end, .home, .end, .up, .backTab])
    }

    @Test("a lone ESC is Escape; Tab, Enter (CR or LF), Backspace, Ctrl-C and text")
    func singleBytes() {
        #expect(decoder.keys(in: [0x1B]) == [.escape])
        #expect(decoder.keys(in: [0x09, 0x0D, 0x0A, 0x7F, 0x03]) == [.tab, .enter, .enter, .backspace, .interrupt])
        #expect(decoder.keys(in: Array("q?[]é".utf8)) == [.character("q"), .character("?"), .character("["), .character("]"), .character("é")])
    }

    @Test("an unknown sequence is dropped whole, not read as the letters it ends with")
    func unknownSequences() {
        #expect(decoder.keys(in: Array("\u{1B}[15~q\u{1B}[1;5Pr".utf8)) == [.character("q"), .character("r")])
        #expect(decoder.keys(in: Array("\u{1B}[12".utf8)) == [])
    }
}
