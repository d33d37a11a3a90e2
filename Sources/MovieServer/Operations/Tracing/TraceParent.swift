/// A W3C Trace Context `traceparent` value, read strictly: `version-traceid-parentid-flags`, each
/// part lowercase hex of its exact width (2, 32, 16, 2), the trace and parent ids not all zeros,
/// the version not `ff`. Version `00` is exactly 55 characters; a later version may go on after a
/// `-`, and only its first four parts are read. Anything else is no `traceparent` at all.
struct TraceParent: Equatable, Sendable {
    let traceID: Substring
    let parentID: Substring
    let flags: UInt8

    /// Whether the caller recorded its span and asks this one to be recorded too.
    var isSampled: Bool { flags & 1 == 1 }

    init?(_ value: String) {
        let bytes = value.utf8
        guard bytes.count >= 55 else { return nil }
        let start = bytes.startIndex
        func at(_ offset: Int) -> String.Index { bytes.index(start, offsetBy: offset) }
        guard let version = Self.hex(bytes[at(0)..<at(2)]), version != 0xFF,
              bytes[at(2)] == UInt8(ascii: "-"), bytes[at(35)] == UInt8(ascii: "-"), bytes[at(52)] == UInt8(ascii: "-"),
              Self.isHex(bytes[at(3)..<at(35)]), Self.isHex(bytes[at(36)..<at(52)]),
              let flags = Self.hex(bytes[at(53)..<at(55)])
        else { return nil }
        if version == 0 {
            guard bytes.count == 55 else { return nil }
        } else if bytes.count > 55 {
            guard bytes[at(55)] == UInt8(ascii: "-") else { return nil }
        }
        traceID = value[at(3)..<at(35)]
        parentID = value[at(36)..<at(52)]
        guard traceID.utf8.contains(where: { $0 != UInt8(ascii: "0") }),
              parentID.utf8.contains(where: { $0 != UInt8(ascii: "0") })
        else { return nil }
        self.flags = flags
    }

    /// This context as version `00`, its flags only the sampling decision given.
    func deciding(sampled: Bool) -> String {
        "00-\(traceID)-\(parentID)-\(sampled ? "01" : "00")"
    }

    private static func isHex(_ bytes: Substring.UTF8View) -> Bool {
        bytes.allSatisfy { digit($0) != nil }
    }

    private static func hex(_ bytes: Substring.UTF8View) -> UInt8? {
        var value: UInt8 = 0
        for byte in bytes {
            guard let digit = digit(byte) else { return nil }
            value = value << 4 | digit
        }
        return value
    }

    private static func digit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
