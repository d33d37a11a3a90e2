import Crypto
import Foundation

/// The OAuth 2.0 Device Authorization Grant (RFC 8628): a device asks for a code, a person
/// approves it on the sign-in page, and the device's polls of the token endpoint get the
/// person's tokens once. Only a SHA-256 of the device code is stored.
struct DeviceFlow: Sendable {
    let storage: any DeviceAuthorizationStorage & AccountStorage & SignInStorage
    let configuration: AuthConfiguration

    /// How much a poll that came too soon adds to the device's interval (RFC 8628 §3.5).
    static let slowDownStep = 5
    /// The longest device name kept; a longer one is cut.
    static let maximumDeviceNameLength = 100

    /// Starts an authorization for `client` on the device named `deviceName`; the page is at `verificationURI`.
    func start(for client: ClientCredentials, deviceName: String?, verificationURI: String, now: Date) async throws(ErrorAnswer) -> DeviceAuthorizationResponse {
        let deviceCode = Data(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }).base64URLEncoded
        let lifetime = Int(configuration.deviceCodeLifetime / .seconds(1))
        for _ in 0..<5 {
            let userCode = UserCode.random()
            let authorization = StoredDeviceAuthorization(
                deviceCodeHash: Self.hash(deviceCode), userCode: userCode.letters, clientID: client.id,
                deviceName: Self.deviceName(deviceName, client: client), createdAt: now,
                expiresAt: now.addingTimeInterval(TimeInterval(lifetime)), interval: configuration.devicePollInterval
            )
            let saved: Bool
            saved = try await answering { () async throws(StorageError) in try await storage.saveDeviceAuthorization(authorization) }
            guard saved else { continue }
            return DeviceAuthorizationResponse(
                device_code: deviceCode, user_code: userCode.description, verification_uri: verificationURI,
                verification_uri_complete: "\(verificationURI)?user_code=\(userCode)", expires_in: lifetime,
                interval: configuration.devicePollInterval
            )
        }
        throw ErrorAnswer(.serviceUnavailable, code: "temporarily_unavailable", message: "No free user code was found; try again.")
    }

    /// The sign-in a poll of the token endpoint opens, when the person approved; otherwise the
    /// RFC 8628 §3.5 error to send back.
    func redeem(_ deviceCode: String, presentedBy client: ClientCredentials, now: Date) async throws(ErrorAnswer) -> StoredSignIn {
        let before: StoredDeviceAuthorization?
        before = try await answering { () async throws(StorageError) in
            try await storage.pollDeviceAuthorization(deviceCodeHash: Self.hash(deviceCode), now: now, slowDownBy: Self.slowDownStep)
        }
        guard let before, before.clientID == client.id else {
            throw .tokenRequest(.badRequest, "invalid_grant", "The device code is unknown or was issued to another client.")
        }
        guard now < before.expiresAt else {
            throw .tokenRequest(.badRequest, "expired_token", "The device code expired; start again to get a new one.")
        }
        switch before.state {
        case .pending where before.isTooSoon(now):
            throw .tokenRequest(.badRequest, "slow_down", "Polled sooner than the interval; wait \(before.interval + Self.slowDownStep) seconds between polls.")
        case .pending:
            throw .tokenRequest(.badRequest, "authorization_pending", "The person has not approved or denied this device yet.")
        case .denied:
            throw .tokenRequest(.badRequest, "access_denied", "The person denied this device.")
        case .redeemed:
            throw .tokenRequest(.badRequest, "invalid_grant", "The device code was used already.")
        case .approved:
            guard let account = before.account else {
                throw .tokenRequest(.badRequest, "access_denied", "The approval names no account.")
            }
            // An account removed since the approval (or removed and made again) gets nothing.
            let gone = ErrorAnswer.tokenRequest(.badRequest, "access_denied", "The account that approved this device is gone.")
            let found: StoredAccount?
            found = try await answering { () async throws(StorageError) in try await storage.account(named: account) }
            guard let found, found.id == before.accountID else { throw gone }
            let signIn = StoredSignIn(
                id: UUID().uuidString.lowercased(), account: account, accountID: found.id, clientID: client.id,
                deviceName: before.deviceName, createdAt: now, lastUsedAt: now
            )
            let saved: Bool
            saved = try await answering { () async throws(StorageError) in try await storage.saveSignIn(signIn) }
            guard saved else { throw gone }
            return signIn
        }
    }

    static func hash(_ deviceCode: String) -> [UInt8] {
        Array(SHA256.hash(data: Data(deviceCode.utf8)))
    }

    /// The device's name as the page will show it: printable, without the characters HTML gives a
    /// meaning (Mustache escapes them, but by grapheme cluster, and a prepended mark would hide
    /// one), at most 100 characters; the client's id when it sent none.
    static func deviceName(_ name: String?, client: ClientCredentials) -> String {
        let printable = (name ?? "").unicodeScalars.filter { !$0.properties.generalCategory.isControlOrFormat && !"<>&\"'`".unicodeScalars.contains($0) }
        let trimmed = String(String.UnicodeScalarView(printable)).trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? client.id : String(trimmed.prefix(maximumDeviceNameLength))
    }
}

private extension Unicode.GeneralCategory {
    var isControlOrFormat: Bool {
        switch self {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned, .privateUse: true
        default: false
        }
    }
}
