/// How many terminal columns text takes, and text cut or padded to a number of columns.
///
/// A terminal gives East Asian wide characters and emoji two columns, combining marks and
/// zero-width characters none; counting characters instead misaligns every column after a
/// Japanese title. Control characters are expected to be made safe first (``TerminalText``).
public enum DisplayWidth {
    /// The columns `text` takes.
    public static func of(_ text: some StringProtocol) -> Int {
        if let columns = printableASCIIColumns(text) { return columns }
        return text.reduce(0) { $0 + columns(of: $1) }
    }

    /// The columns of text made only of printable ASCII (a space to `~`), one each, read from its
    /// bytes; nil for any other text. Most titles and notes are such text, and a table of
    /// thousands of rows measures each.
    private static func printableASCIIColumns(_ text: some StringProtocol) -> Int? {
        func count(_ bytes: some Sequence<UInt8>) -> Int? {
            var count = 0
            for byte in bytes {
                guard byte >= 0x20, byte < 0x7F else { return nil }
                count += 1
            }
            return count
        }
        return text.utf8.withContiguousStorageIfAvailable { count($0) } ?? count(text.utf8)
    }

    /// The columns one character (a grapheme cluster) takes: 0, 1 or 2.
    public static func columns(of character: Character) -> Int {
        if character.isASCII { return 1 }
        var widest = 0
        for scalar in character.unicodeScalars {
            let properties = scalar.properties
            if properties.isEmojiPresentation || isWide(scalar.value) { return 2 }
            switch properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .format: continue
            default: break
            }
            if (0xFE00...0xFE0F).contains(scalar.value) { continue }
            widest = max(widest, 1)
        }
        return widest
    }

    /// `text` cut to at most `width` columns, ending with `…` when it was cut.
    public static func truncate(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        guard of(text) > width else { return text }
        if printableASCIIColumns(text) != nil { return String(decoding: text.utf8.prefix(width - 1), as: UTF8.self) + "…" }
        var result = ""
        var used = 0
        for character in text {
            let columns = columns(of: character)
            if used + columns > width - 1 { break }
            result.append(character)
            used += columns
        }
        return result + "…"
    }

    /// `text` cut to `width` columns and padded with spaces to exactly `width`, on the left
    /// when `alignRight`.
    public static func fit(_ text: String, to width: Int, alignRight: Bool = false) -> String {
        let cut = truncate(text, to: width)
        let padding = String(repeating: " ", count: max(0, width - of(cut)))
        return alignRight ? padding + cut : cut + padding
    }

    /// East Asian Wide and Fullwidth blocks (Unicode's EastAsianWidth W and F, by block).
    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
             0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
             0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
             0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            true
        default:
            false
        }
    }
}
