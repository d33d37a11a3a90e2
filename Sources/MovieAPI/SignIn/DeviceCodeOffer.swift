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
}
