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

    @Test("printable ASCII is measured and cut by its bytes, exactly as character by character; anything else goes character by character")
    func asciiByBytes() {
        #expect(DisplayWidth.of("Heat (1995)") == 11)
        #expect(DisplayWidth.truncate("Heat of the night", to: 5) == "Heat…")
        #expect(DisplayWidth.fit("Heat of the night", to: 8) == "Heat of…")
        #expect(DisplayWidth.of("a\r\nb") == 3, "a CR LF pair is one character, one column")
        #expect(DisplayWidth.of("Amélie") == 6)
        #expect(DisplayWidth.truncate("Amélie Poulain", to: 5) == "Amél…")
        let printable = (0x20..<0x7F).map { Character(UnicodeScalar($0)) }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let text = String((0..<Int.random(in: 0...40, using: &generator)).map { _ in printable.randomElement(using: &generator)! })
            let width = Int.random(in: 1...30, using: &generator)
            let cut = DisplayWidth.truncate(text, to: width)
            #expect(DisplayWidth.of(text) == text.count)
            #expect(cut == (text.count <= width ? text : String(text.prefix(width - 1)) + "…"))
        }
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
