import Foundation

/// Reads the `kid` of a JWT's header before any key is chosen, so that the token is verified
/// with exactly the key it names.
enum TokenHeader {
    private struct Fields: Decodable {
        let kid: String?
    }

    static func keyID(of token: String) -> String? {
        guard token.utf8.count <= 8192, let header = token.split(separator: ".", omittingEmptySubsequences: false).first else { return nil }
        var base64 = header.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64) else { return nil }
        return (try? JSONDecoder().decode(Fields.self, from: data))?.kid
    }
}
