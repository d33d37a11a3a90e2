import Foundation
import Movies
import Networking

/// Signs a person in from a terminal with the OAuth 2.0 Device Authorization Grant (RFC 8628), as
/// `gh auth login` does: ask the API for a code, show it, poll the token endpoint at the server's
/// interval (slower after each `slow_down`) until the person approves or denies on the page, or
/// the code expires.
public struct DeviceSignIn: Sendable {
    private let client: APIClient
    private let clientCredentials: APIClientCredentials
    private let now: @Sendable () -> Date
    private let sleep: @Sendable (Duration) async throws -> Void

    /// `client` sends unauthenticated requests to the API; `sleep` waits between polls (a test
    /// passes one that does not).
    public init(
        client: APIClient, clientCredentials: APIClientCredentials, now: @escaping @Sendable () -> Date = { Date() },
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.client = client
        self.clientCredentials = clientCredentials
        self.now = now
        self.sleep = sleep
    }

    /// A new code for the device named `deviceName`; refused (``DeviceSignInError/untrustedPage(_:)``)
    /// when the page it names is not one to send a person to.
    public func start(deviceName: String, api: String) async throws(DeviceSignInError) -> DeviceCodeOffer {
        let route = APIRoute.deviceAuthorization(clientID: clientCredentials.id, secret: clientCredentials.secret, deviceName: deviceName)
        let offer: DeviceCodeOffer
        do {
            offer = try await client.send(Request<DeviceCodeOffer>(route))
        } catch {
            if let status = error.statusCode, Self.meansNoDeviceSignIn(status) { throw .notSupported(api: api, status: status) }
            throw .network(error)
        }
        if let problem = offer.pageProblem { throw .untrustedPage(problem) }
        return offer
    }

    /// Whether an answer of `status` to the device authorization says the server has no such
    /// endpoint: not found, not allowed, or not implemented (a server that is not Marquee's).
    static func meansNoDeviceSignIn(_ status: Int) -> Bool {
        [404, 405, 501].contains(status)
    }

    /// Polls until the person decides: their credential once approved. Each poll comes at least
    /// the interval after the last; a `slow_down` adds five seconds to it for good (RFC 8628 §3.5).
    /// Cancelling the task stops the wait (`CancellationError`).
    public func waitForApproval(of offer: DeviceCodeOffer, onWait: @Sendable (Int) -> Void = { _ in }) async throws -> Credential {
        var interval = max(1, offer.interval)
        let deadline = now().addingTimeInterval(TimeInterval(offer.expiresIn))
        while true {
            onWait(interval)
            try await sleep(.seconds(interval))
            let requestedAt = now()
            let poll: DevicePoll
            do {
                poll = try await client.send(APIRoute.devicePollRequest(.deviceCode(offer.deviceCode, clientID: clientCredentials.id, secret: clientCredentials.secret)))
            } catch {
                if requestedAt > deadline { throw DeviceSignInError.expired }
                throw DeviceSignInError.network(error)
            }
            switch poll {
            case let .tokens(token):
                return token.credential(issuedAt: requestedAt)
            case .pending:
                continue
            case .slowDown:
                interval += 5
            case .denied:
                throw DeviceSignInError.denied
            case .expired:
                throw DeviceSignInError.expired
            case let .refused(_, description):
                throw DeviceSignInError.refused(description)
            }
        }
    }
}
