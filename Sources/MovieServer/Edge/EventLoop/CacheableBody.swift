import Crypto
import Hummingbird

/// A JSON body with its strong entity tag, computed once with the body: the first 128 bits of
/// the SHA-256 of its bytes, so the same bytes have the same tag in every run of the server.
struct CacheableBody: Sendable {
    let bytes: ByteBuffer
    let entityTag: String
    /// The `Content-Length` of the body, as sent.
    let contentLength: String

    init(json: String) {
        bytes = ByteBuffer(string: json)
        contentLength = String(bytes.readableBytes)
        let digest = SHA256.hash(data: Array(json.utf8))
        entityTag = "\"" + digest.prefix(16).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined() + "\""
    }
}
