import Foundation
import Hummingbird
import HummingbirdAuth

/// `/api/account`: what a signed-in person sees of their own account, with their access token.
///
/// - `GET /api/account/sessions`: each device signed in (`id`, `device`, `client`, `signedInAt`,
///   `lastUsedAt`, and `current` for the one asking), the most recently used first.
/// - `DELETE /api/account/sessions/{id}`: signs that device out (its refresh tokens end; its
///   access token is refused on personal paths at once).
/// - `DELETE /api/account/sessions`: signs every device out, this one too.
///
/// An application's token (client credentials, no person) is a 403: it has no account.
struct AccountRoutes: Sendable {
    let storage: any SignInStorage
    let check: AccessTokenCheck

    func register<Context: AuthRequestContext<AccessTokenIdentity>>(on api: some RouterMethods<Context>) {
        let router = api.group("account").add(middleware: AccessTokenAuthenticator<Context>(check: check, missing: .missingToken))
        router.get("sessions") { _, context in
            let (account, current) = try await person(context)
            let signIns: [StoredSignIn]
            signIns = try await answering { () async throws(StorageError) in try await storage.signIns(ofAccount: account) }
            return try Self.json(SessionList(account: account, sessions: signIns.map { SessionList.Session($0, current: current) }))
        }
        router.delete("sessions/:id") { _, context in
            let (account, _) = try await person(context)
            let id = try context.parameters.require("id")
            let ended: Int
            ended = try await answering { () async throws(StorageError) in try await storage.endSignIns(ofAccount: account, id: id) }
            guard ended == 1 else { throw ErrorAnswer(.notFound, code: "not_found", message: "This account has no session \(id).") }
            return Response(status: .noContent)
        }
        router.delete("sessions") { _, context in
            let (account, _) = try await person(context)
            let ended: Int
            ended = try await answering { () async throws(StorageError) in try await storage.endSignIns(ofAccount: account, id: nil) }
            return try Self.json(["ended": ended])
        }
    }

    /// The account and sign-in of the request's token, once the sign-in is found still on.
    private func person(_ context: some AuthRequestContext<AccessTokenIdentity>) async throws -> (account: String, signIn: String) {
        let identity = try context.verifiedIdentity()
        guard let account = identity.account, let signIn = identity.signInID else {
            throw ErrorAnswer.applicationHasNoAccount
        }
        try await check.tokens.confirmSignedIn(identity)
        return (account, signIn)
    }

    private static func json(_ value: some Encodable) throws -> Response {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = .sortedKeys
        return Response(
            status: .ok,
            headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(value)))
        )
    }
}

/// The body of `GET /api/account/sessions`.
struct SessionList: Encodable {
    struct Session: Encodable {
        let id: String
        let device: String
        let client: String
        let signedInAt: Date
        let lastUsedAt: Date
        let current: Bool

        init(_ signIn: StoredSignIn, current: String) {
            id = signIn.id
            device = signIn.deviceName
            client = signIn.clientID
            signedInAt = signIn.createdAt
            lastUsedAt = signIn.lastUsedAt
            self.current = signIn.id == current
        }
    }

    let account: String
    let sessions: [Session]
}
