import Foundation

/// The `sub` claim of a JWT access token, read without checking its signature: only to name
/// the account a sign-in gave, never to trust it (the server checks every token it receives).
public enum TokenSubject {
    public static func of(_ token: String) -> String? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64),
              let claims = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let subject = claims["sub"] as? String, !subject.isEmpty, subject.count <= 64
        else { return nil }
        return subject
    }
}
