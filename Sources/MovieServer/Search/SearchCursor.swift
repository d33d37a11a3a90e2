import Crypto
import Foundation
import MovieContract

/// The opaque `cursor` of a search page: where the next page starts, for which search, signed
/// so that an edited cursor, or one of another search, is refused. Signed with a key derived
/// from the server's newest token signing key (instances sharing `--signing-keys` accept each
/// other's cursors); one made with a key the ring no longer holds is refused too.
struct SearchCursor {
    private struct Payload: Codable {
        /// The signing key's id.
        var k: String
        /// The search's fingerprint.
        var f: String
        var p: SearchPosition
        /// The place, from 1, of the first movie of the page the cursor asks for; absent from
        /// cursors made before it was kept.
        var n: Int?
    }

    /// Why a cursor cannot be used.
    enum Refusal: Error, Equatable {
        case malformed
        case otherSearch
    }

    let keys: SigningKeyRing

    /// Where a cursor says its page starts: after which movie, and at which place among the matches.
    struct Start: Equatable {
        var after: SearchPosition
        /// `nil` for a cursor that did not say.
        var rank: Int?
    }

    /// The cursor of the page that begins after `position`, at `rank` (from 1) among the matches
    /// when known.
    func make(after position: SearchPosition, rank: Int?, of search: MovieSearch) -> String {
        let signer = keys.newest
        let payload = Payload(k: signer.id, f: Self.digest(search.fingerprint), p: position, n: rank)
        // Sorted keys: the encoder's order is otherwise not fixed, and the same page must carry the
        // same cursor (and so the same bytes and tag) every time it is made.
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let body = (try? encoder.encode(payload)) ?? Data()
        return Self.base64URL(body) + "." + Self.base64URL(Data(Self.mac(body, key: signer.key)))
    }

    func start(from cursor: String, for search: MovieSearch) throws(Refusal) -> Start {
        let parts = cursor.split(separator: ".", omittingEmptySubsequences: false)
        guard cursor.utf8.count <= Self.maximumLength, parts.count == 2,
              let body = Self.data(base64URL: String(parts[0])), let mac = Self.data(base64URL: String(parts[1])),
              let payload = try? JSONDecoder().decode(Payload.self, from: body),
              let key = keys.key(id: payload.k),
              Self.mac(body, key: key.key) == Array(mac)
        else { throw .malformed }
        guard payload.f == Self.digest(search.fingerprint) else { throw .otherSearch }
        return Start(after: payload.p, rank: payload.n.flatMap { $0 > 0 ? $0 : nil })
    }

    /// The search's fingerprint in 22 characters, whatever its words: with the position's title
    /// key (at most ``SearchText/titleKeyLength`` code points), a cursor stays within
    /// ``maximumLength``.
    private static func digest(_ fingerprint: String) -> String {
        base64URL(Data(SHA256.hash(data: Data(fingerprint.utf8)).prefix(16)))
    }

    /// The longest cursor the server makes or reads.
    static let maximumLength = APILimits.cursorLength

    private static func mac(_ body: Data, key: SymmetricKey) -> [UInt8] {
        let cursorKey = SymmetricKey(data: HMAC<SHA256>.authenticationCode(for: Data("marquee search cursor".utf8), using: key))
        return Array(HMAC<SHA256>.authenticationCode(for: body, using: cursorKey))
    }

    private static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    private static func data(base64URL text: String) -> Data? {
        guard text.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || ($0 < 128 && Character(Unicode.Scalar($0)).isLetter) || ($0 >= 48 && $0 <= 57) }) else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
