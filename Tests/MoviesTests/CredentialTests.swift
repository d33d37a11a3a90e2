import Foundation
import Movies
import Testing

@Suite("Credential")
struct CredentialTests {
    @Test("a credential is renewed a tenth of its lifetime before expiry, at most 60 s (the server's clock-skew leeway)", arguments: [
        (3600.0, 60.0), (600.0, 60.0), (300.0, 30.0), (10.0, 1.0),
    ])
    func renewsBeforeExpiry(lifetime: TimeInterval, margin: TimeInterval) {
        let issued = Date(timeIntervalSince1970: 1_800_000_000)
        let credential = Credential(accessToken: "a", refreshToken: nil, issuedAt: issued, expiresAt: issued.addingTimeInterval(lifetime))
        #expect(!credential.needsRenewal(at: issued.addingTimeInterval(lifetime - margin - 0.5)))
        #expect(credential.needsRenewal(at: issued.addingTimeInterval(lifetime - margin)))
    }
}
