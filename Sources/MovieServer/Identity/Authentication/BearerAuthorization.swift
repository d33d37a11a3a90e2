/// Reads an `Authorization: Bearer <token>` header (RFC 6750, 2.1): the scheme in any case, one or
/// more spaces, the token; spaces and tabs around it are not part of it.
///
/// It runs for every request that carries a token, on the event loop too, so it reads the bytes
/// once and allocates only the token (Foundation's trimming went through `NSString` and cost
/// about a sixth of an authenticated request's CPU).
enum BearerAuthorization {
    static func token(in header: String) -> String? {
        let bytes = header.utf8
        var index = bytes.startIndex
        while index != bytes.endIndex, bytes[index] == space { bytes.formIndex(after: &index) }
        for expected in "bearer".utf8 {
            guard index != bytes.endIndex, bytes[index] | 0x20 == expected else { return nil }
            bytes.formIndex(after: &index)
        }
        guard index != bytes.endIndex, bytes[index] == space else { return nil }
        while index != bytes.endIndex, isBlank(bytes[index]) { bytes.formIndex(after: &index) }
        var end = bytes.endIndex
        while end != index, isBlank(bytes[bytes.index(before: end)]) { bytes.formIndex(before: &end) }
        guard index != end else { return nil }
        return String(decoding: bytes[index..<end], as: UTF8.self)
    }

    private static let space = UInt8(ascii: " ")

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == space || byte == UInt8(ascii: "\t")
    }
}
