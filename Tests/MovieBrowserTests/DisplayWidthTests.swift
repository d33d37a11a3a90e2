import MovieBrowser
import Testing
import TextFormatting

@Suite("Display width")
struct DisplayWidthTests {
    @Test("wide characters and emoji take two columns, combining marks none")
    func widths() {
        #expect(DisplayWidth.of("Zootopia") == 8)
        #expect(DisplayWidth.of("千と千尋の神隠し") == 16)
        #expect(DisplayWidth.of("기생충") == 6)
        #expect(DisplayWidth.of("Ame\u{301}lie") == 6)
        #expect(DisplayWidth.of("🎬 Film") == 7)
        #expect(DisplayWidth.of("ＡＢ") == 4)
    }

    @Test("fitting cuts at a column boundary with an ellipsis and pads to the exact width")
    func fitting() {
        #expect(DisplayWidth.fit("千と千尋の神隠し", to: 7) == "千と千…")
        #expect(DisplayWidth.of(DisplayWidth.fit("千と千尋の神隠し", to: 8)) == 8)
        #expect(DisplayWidth.fit("Heat", to: 6) == "Heat  ")
        #expect(DisplayWidth.fit("42", to: 5, alignRight: true) == "   42")
        #expect(DisplayWidth.fit("Heat", to: 0) == "")
    }
}
