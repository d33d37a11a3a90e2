/// Text from a server or a file made safe to print: control characters (C0, C1, DEL), line and
/// paragraph separators and bidirectional overrides become `�`, so no name or message can move
/// the cursor, clear the screen, set a window title or forge a line.
public enum TerminalText {
    public static func safe(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            scalars.append(isUnsafe(scalar) ? "\u{FFFD}" : scalar)
        }
        return String(scalars)
    }

    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
