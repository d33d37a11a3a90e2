/// A key the browser reacts to, decoded from what the terminal sends.
public enum Key: Sendable, Hashable {
    case up, down, left, right
    case pageUp, pageDown, home, end
    case enter, escape, tab, backTab, backspace
    /// Ctrl-C, which raw mode delivers as a byte instead of a signal.
    case interrupt
    case character(Character)
}

/// Turns the bytes a terminal in raw mode sends into ``Key``s: ASCII, UTF-8 text, and the
/// escape sequences of xterm-like terminals (CSI and SS3). Unknown sequences are dropped whole,
/// never read as the letters they end with.
public struct KeyDecoder: Sendable {
    public init() {}

    /// The keys in one read of the terminal. A lone ESC is the Escape key: a terminal sends a
    /// sequence in one write, so its bytes arrive together.
    public func keys(in bytes: [UInt8]) -> [Key] {
        var keys: [Key] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x1B {
                let (key, length) = escapeSequence(bytes, at: index)
                if let key { keys.append(key) }
                index += length
                continue
            }
            index += 1
            switch byte {
            case 0x03: keys.append(.interrupt)
            case 0x09: keys.append(.tab)
            case 0x0A, 0x0D: keys.append(.enter)
            case 0x08, 0x7F: keys.append(.backspace)
            case 0x20...0x7E: keys.append(.character(Character(Unicode.Scalar(byte))))
            case 0xC0...0xF7:
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
                let end = min(bytes.count, index - 1 + length)
                if let text = String(validating: bytes[(index - 1)..<end], as: UTF8.self), let character = text.first {
                    keys.append(.character(character))
                }
                index = end
            default: continue
            }
        }
        return keys
    }

    /// The key an escape sequence starting at `start` stands for, and how many bytes it takes.
    private func escapeSequence(_ bytes: [UInt8], at start: Int) -> (Key?, Int) {
        guard start + 1 < bytes.count else { return (.escape, 1) }
        let introducer = bytes[start + 1]
        guard introducer == UInt8(ascii: "[") || introducer == UInt8(ascii: "O") else { return (.escape, 1) }
        var end = start + 2
        while end < bytes.count, !(0x40...0x7E).contains(bytes[end]) { end += 1 }
        guard end < bytes.count else { return (nil, bytes.count - start) }
        let parameters = String(decoding: bytes[(start + 2)..<end], as: UTF8.self)
        let final = Character(Unicode.Scalar(bytes[end]))
        let length = end - start + 1
        switch (final, parameters) {
        case ("A", _): return (.up, length)
        case ("B", _): return (.down, length)
        case ("C", _): return (.right, length)
        case ("D", _): return (.left, length)
        case ("H", _): return (.home, length)
        case ("F", _): return (.end, length)
        case ("Z", _): return (.backTab, length)
        case ("~", "1"), ("~", "7"): return (.home, length)
        case ("~", "4"), ("~", "8"): return (.end, length)
        case ("~", "5"): return (.pageUp, length)
        case ("~", "6"): return (.pageDown, length)
        default: return (nil, length)
        }
    }
}
