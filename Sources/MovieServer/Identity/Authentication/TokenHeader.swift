import Foundation

/// The header of a JWT, read before any key is chosen, so that a token is verified with exactly
/// the key it names and by exactly that key's algorithm.
struct TokenHeader: Decodable {
    /// The only algorithm the server signs with. A token whose header names another (`HS512`,
    /// `RS256`, `none`) is refused before its signature is looked at, whatever a library would
    /// accept for the key.
    static let algorithm = "HS256"

    let alg: String?
    let kid: String?
    /// Extensions the token says must be understood (RFC 7515, 4.1.11); the server understands none.
    let crit: [String]?

    /// The header of `token`, or `nil` when it is not a readable JWT header.
    static func read(_ token: String) -> TokenHeader? {
        guard token.utf8.count <= 8192, let header = token.split(separator: ".", omittingEmptySubsequences: false).first else { return nil }
        var base64 = header.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64) else { return nil }
        return try? JSONDecoder().decode(TokenHeader.self, from: data)
    }

    private enum CodingKeys: String, CodingKey { case alg, kid, crit }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        alg = try container.decodeIfPresent(String.self, forKey: .alg)
        kid = try container.decodeIfPresent(String.self, forKey: .kid)
        crit = container.contains(.crit) ? (try? container.decode([String].self, forKey: .crit)) ?? ["(unreadable)"] : nil
    }
}
