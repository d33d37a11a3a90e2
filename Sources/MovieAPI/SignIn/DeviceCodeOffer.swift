import Foundation

/// A device authorization under way (RFC 8628 §3.2): what to show the person, and what the
/// device polls with. Its description never shows the device code.
public struct DeviceCodeOffer: Sendable, Decodable, CustomStringConvertible {
    let deviceCode: String
    /// The code the person types, `BCDF-GHJK`.
    public let userCode: String
    /// The sign-in page.
    public let verificationURI: String
    /// The sign-in page with the code filled in.
    public let verificationURIComplete: String?
    /// Seconds until the code expires.
    public let expiresIn: Int
    /// Seconds to wait between polls, at first.
    public let interval: Int

    private enum CodingKeys: String, CodingKey {
        case deviceCode = "device_code", userCode = "user_code", verificationURI = "verification_uri"
        case verificationURIComplete = "verification_uri_complete", expiresIn = "expires_in", interval
    }

    public var description: String { "DeviceCodeOffer(userCode: \(userCode), verificationURI: \(verificationURI))" }

    /// Why the pages this offer names cannot be shown to a person, or `nil` when they can: each
    /// must be an absolute `http` or `https` URL with a host, in visible ASCII as a URI is (RFC
    /// 3986). Anything else (`javascript:`, `file:`, an app's own scheme, escape sequences) is
    /// not a page to send a person to.
    public var pageProblem: String? {
        if let problem = Self.problem(with: verificationURI) { return "verification_uri \(problem)" }
        if let complete = verificationURIComplete, let problem = Self.problem(with: complete) { return "verification_uri_complete \(problem)" }
        return nil
    }

    private static func problem(with address: String) -> String? {
        guard !address.isEmpty, address.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            return "holds characters a web address cannot hold"
        }
        guard let url = URL(string: address), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return "is not an http or https address"
        }
        guard let host = url.host, !host.isEmpty else { return "names no host" }
        return nil
    }
}
