/// Text from a server or a file made safe to print: control characters (C0, C1, DEL), line and
/// paragraph separators and bidirectional overrides become `�`, so no name or message can move
/// the cursor, clear the screen, set a window title or forge a line. The one formatter of such
/// text: `marquee` passes each field through ``safe(_:)``, and everything it prints through
/// ``safeOutput(_:)`` as well, so that a field someone forgot still reaches no terminal raw.
public enum TerminalText {
    public static func safe(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            scalars.append(isUnsafe(scalar) ? "\u{FFFD}" : scalar)
        }
        return String(scalars)
    }

    /// What a command writes, made safe as a whole just before it reaches the terminal: the same
    /// rule as ``safe(_:)``, but the line feeds and tabs of the command's own layout are kept. In a
    /// JSON document (text that begins with `{` or `[`), where such characters can only stand
    /// inside strings, each is written as a JSON escape (`\u202e`) instead, so a program reads
    /// the same string. The fields from a server or a file are to pass ``safe(_:)`` first: only
    /// that keeps a line feed in a name from forging a line.
    public static func safeOutput(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { isUnsafe($0) && !isLayout($0) }) else { return text }
        let json = text.first == "{" || text.first == "["
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if !isUnsafe(scalar) || isLayout(scalar) {
                scalars.append(scalar)
            } else if json {
                let hex = String(scalar.value, radix: 16)
                scalars.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
            } else {
                scalars.append("\u{FFFD}")
            }
        }
        return String(scalars)
    }

    private static func isLayout(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\n" || scalar == "\t"
    }

    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
