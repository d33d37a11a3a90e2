import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdAuth
import Logging

/// The device flow's verification page (RFC 8628 §3.3), at `/device`: a person signs in (or signs
/// up), types the code their device shows (or follows the complete link), sees which device asks,
/// and approves or denies it. Server-rendered HTML with no script; a cookie session
/// (hummingbird-auth's, kept in the server's storage) with a CSRF token on every form; the code is
/// kept in the session, not the address; passwords are checked by ``Accounts`` and guesses
/// limited by ``SignInThrottle``.
struct SignInPage: Sendable {
    static let path = "/device"
    static let maximumBodySize = 8 * 1024
    /// How long a page session lasts without use.
    static let sessionLifetime: Duration = .seconds(3600)

    let accounts: Accounts
    let storage: any AccountStorage & DeviceAuthorizationStorage
    let configuration: AuthConfiguration
    let templates: PageTemplates
    let throttle: SignInThrottle

    init(accounts: Accounts, storage: any AccountStorage & DeviceAuthorizationStorage, configuration: AuthConfiguration, templates: PageTemplates) {
        self.accounts = accounts
        self.storage = storage
        self.configuration = configuration
        self.templates = templates
        throttle = SignInThrottle(addressLimit: configuration.signInLimit)
    }

    func register(on router: Router<APIRequestContext>, sessionStorage: any WebSessionStorage) {
        let secure = configuration.publicURL?.lowercased().hasPrefix("https://") ?? false
        let sessions = SessionMiddleware<APIRequestContext>(
            storage: StoragePersistDriver(storage: sessionStorage, now: configuration.now),
            configuration: SessionMiddlewareConfiguration(
                sessionCookieParameters: SessionCookieParameters(name: "marquee_session", path: Self.path, secure: secure, sameSite: .lax),
                keyPrefix: "page.", defaultSessionExpiration: Self.sessionLifetime
            )
        )
        let page = router.group(RouterPath(Self.path)).add(middleware: sessions)
        page.get("") { request, context in
            var session = context.sessions.session ?? .anonymous()
            if let typed = request.uri.queryParameters["user_code"] {
                session.userCode = UserCode(typed: String(typed))?.letters
                Self.keep(session, in: context)
                return Self.redirect()
            }
            if context.sessions.session == nil { Self.keep(session, in: context) }
            return try await show(session, context: context)
        }
        page.post("sign-in") { request, context in
            try await handle(request, context) { form, session in
                let name = form.name ?? ""
                let address = Self.address(context)
                let now = configuration.now()
                if let wait = throttle.wait(account: name.lowercased(), address: address, now: now) {
                    return await tooMany(session, wait: wait)
                }
                // Counted before the check, so that a burst of guesses sent at once is limited
                // as strictly as guesses one after another; forgiven when the password is right.
                throttle.recordFailure(account: name.lowercased(), address: address, now: now)
                let checked: StoredAccount?
                do throws(AccountError) {
                    checked = try await accounts.authenticate(name: name, password: form.password ?? "")
                } catch {
                    return await busy(session, error)
                }
                guard let account = checked else {
                    context.logger.notice("a sign-in on the page failed")
                    return render("sign-in", status: .unauthorized, session, ["message": "The account name or password is not right.", "name": Self.safeEcho(name)])
                }
                throttle.forgive(account: name.lowercased(), address: address)
                signIn(account, session: session, context: context)
                return Self.redirect()
            }
        }
        page.post("sign-up") { request, context in
            try await handle(request, context) { form, session in
                guard configuration.allowsSignUp else {
                    return render("sign-in", status: .forbidden, session, ["message": "This server does not take new accounts here; ask its operator."])
                }
                let address = Self.address(context)
                let now = configuration.now()
                if let wait = throttle.wait(address: "sign-up:" + address, now: now) { return await tooMany(session, wait: wait) }
                throttle.recordFailure(address: "sign-up:" + address, now: now)
                do throws(AccountError) {
                    let account = try await accounts.made(name: form.name ?? "", password: form.password ?? "")
                    context.logger.notice("an account was made on the page")
                    signIn(account, session: session, context: context)
                    return Self.redirect()
                } catch {
                    let status: HTTPResponse.Status = switch error {
                    case .nameTaken: .conflict
                    case .busy, .storage: .serviceUnavailable
                    default: .badRequest
                    }
                    return render("sign-in", status: status, session, ["message": error.description])
                }
            }
        }
        page.post("code") { request, context in
            try await handle(request, context, signedIn: true) { form, session in
                var session = session
                let guesser = "code:" + (session.account ?? "")
                let address = Self.address(context)
                let now = configuration.now()
                if let wait = throttle.wait(account: guesser, address: "code:" + address, now: now) {
                    return await tooMany(session, template: "code", wait: wait)
                }
                guard let code = UserCode(typed: form.user_code ?? ""), let pending = try await pendingAuthorization(code.letters) else {
                    throttle.recordFailure(account: guesser, address: "code:" + address, now: now)
                    return render("code", status: .badRequest, session, ["message": "That code is not one a device is waiting with, or it expired. Check it, or start again on the device."])
                }
                session.userCode = pending.userCode
                Self.keep(session, in: context)
                return Self.redirect()
            }
        }
        page.post("decide") { request, context in
            try await handle(request, context, signedIn: true) { form, session in
                var session = session
                guard let code = session.userCode, let account = session.account, let decision = form.decision, ["approve", "deny"].contains(decision) else {
                    return Self.redirect()
                }
                // The code the page showed, sent back with the decision: another tab (or a page
                // elsewhere) that put another code in the session since cannot have it decided.
                guard UserCode(typed: form.user_code ?? "")?.letters == code else {
                    session.userCode = nil
                    Self.keep(session, in: context)
                    return render("code", status: .conflict, session, [
                        "account": account,
                        "message": "The code changed since this page was shown (another tab?). Enter the code your device shows again.",
                    ])
                }
                session.userCode = nil
                Self.keep(session, in: context)
                let pending = try await pendingAuthorization(code)
                let decided: Bool
                do throws(StorageError) {
                    decided = try await storage.decideDeviceAuthorization(userCode: code, account: decision == "approve" ? account : nil, now: configuration.now())
                } catch { throw ErrorAnswer.storageUnavailable(error) }
                guard decided, let pending else {
                    return render("done", status: .conflict, session, ["title": "Nothing to decide", "outcome": "This code expired or was decided already. Start again on the device."])
                }
                context.logger.notice("a device authorization was \(decision == "approve" ? "approved" : "denied") on the page")
                let outcome = decision == "approve"
                    ? "\(pending.deviceName) is now signed in as \(account). You can close this page and go back to it."
                    : "\(pending.deviceName) was not let in. If you did not start this, nothing was given away."
                return render("done", status: .ok, session, ["title": decision == "approve" ? "Approved" : "Denied", "outcome": outcome])
            }
        }
        page.post("sign-out") { request, context in
            try await handle(request, context) { _, _ in
                context.sessions.clearSession()
                return Self.redirect()
            }
        }
    }

    /// Reads the form, checks its CSRF token (and that a person is signed in, when `signedIn`),
    /// then runs `body` with the form and the session.
    private func handle(
        _ request: Request, _ context: APIRequestContext, signedIn: Bool = false,
        _ body: (PageForm, WebSession) async throws -> Response
    ) async throws -> Response {
        let buffer = try await request.body.collect(upTo: Self.maximumBodySize)
        let form = (try? URLEncodedFormDecoder().decode(PageForm.self, from: String(buffer: buffer))) ?? PageForm()
        guard let stored = context.sessions.session, stored.acceptsCSRF(form.csrf) else {
            let session = WebSession.anonymous()
            Self.keep(session, in: context)
            return render("sign-in", status: .forbidden, session, ["message": "This form was too old or did not come from this page. Please try again."])
        }
        var session = stored
        if session.account != nil, try await currentAccount(session) == nil {
            session = WebSession(csrf: session.csrf, userCode: session.userCode)
            Self.keep(session, in: context)
        }
        if signedIn, session.account == nil { return Self.redirect() }
        return try await body(form, session)
    }

    /// The page for `session` as it stands: sign in, type the code, or approve the device.
    private func show(_ session: WebSession, context: APIRequestContext) async throws -> Response {
        guard let account = try await currentAccount(session) else {
            if session.account != nil {
                Self.keep(WebSession(csrf: session.csrf, userCode: session.userCode), in: context)
            }
            return render("sign-in", status: .ok, session, [:])
        }
        if let code = session.userCode, let pending = try await pendingAuthorization(code) {
            return render("confirm", status: .ok, session, [
                "title": "Approve a device", "account": account.name, "device": pending.deviceName,
                "client": pending.clientID, "userCode": UserCode(typed: pending.userCode)?.description ?? pending.userCode,
            ])
        }
        let prefill = session.prefillCode.flatMap { UserCode(typed: $0)?.description } ?? ""
        return render("code", status: .ok, session, ["account": account.name, "userCode": prefill])
    }

    /// The account `session` is signed in to, unless it was removed or its password changed since.
    private func currentAccount(_ session: WebSession) async throws -> StoredAccount? {
        guard let name = session.account else { return nil }
        let account: StoredAccount?
        do throws(StorageError) { account = try await storage.account(named: name) } catch { throw ErrorAnswer.storageUnavailable(error) }
        guard let account, WebSession.stamp(ofPasswordHash: account.passwordHash) == session.passwordStamp else { return nil }
        return account
    }

    private func pendingAuthorization(_ userCode: String) async throws -> StoredDeviceAuthorization? {
        let found: StoredDeviceAuthorization?
        do throws(StorageError) { found = try await storage.deviceAuthorization(userCode: userCode) } catch { throw ErrorAnswer.storageUnavailable(error) }
        guard let found, found.state == .pending, found.expiresAt > configuration.now() else { return nil }
        return found
    }

    /// A new session (a new cookie, so a session id seen before signing in is worth nothing after)
    /// for `account`. A code that came before is only offered: the person confirms it on the code
    /// page, so that one planted before they signed in is never shown for approval unasked.
    private func signIn(_ account: StoredAccount, session: WebSession, context: APIRequestContext) {
        var signedIn = WebSession.anonymous()
        signedIn.account = account.name
        signedIn.passwordStamp = WebSession.stamp(ofPasswordHash: account.passwordHash)
        signedIn.prefillCode = session.userCode ?? session.prefillCode
        context.sessions.clearSession()
        context.sessions.createSession(signedIn, expiresIn: Self.sessionLifetime)
    }

    /// A 429, given after ``SignInThrottle/tarpit``: a client that ignores `Retry-After` and asks
    /// again at once gets its answers no faster than one a second a connection, so a flood costs
    /// the server sleeping tasks, not the CPU the movie paths need.
    private func tooMany(_ session: WebSession, template: String = "sign-in", wait: Int) async -> Response {
        try? await Task.sleep(for: SignInThrottle.tarpit)
        var response = render(template, status: .tooManyRequests, session, ["account": session.account ?? "", "message": "Too many tries. Wait \(wait) seconds, then try again."])
        response.headers[.retryAfter] = String(wait)
        return response
    }

    /// A 503 when the password could not be checked now (too many checks waiting, or the
    /// storage failed), after the same ``SignInThrottle/tarpit``.
    private func busy(_ session: WebSession, _ error: AccountError) async -> Response {
        try? await Task.sleep(for: SignInThrottle.tarpit)
        var response = render("sign-in", status: .serviceUnavailable, session, ["message": error.description])
        response.headers[.retryAfter] = "1"
        return response
    }

    private func render(_ template: String, status: HTTPResponse.Status, _ session: WebSession, _ values: [String: Any]) -> Response {
        var all: [String: Any] = ["title": "Sign in", "csrf": session.csrf, "signUp": configuration.allowsSignUp]
        all.merge(values) { _, new in new }
        if template == "code", all["title"] as? String == "Sign in" { all["title"] = "Enter the code" }
        return Response(
            status: status,
            headers: Self.pageHeaders,
            body: .init(byteBuffer: ByteBuffer(string: templates.render(template, all)))
        )
    }

    private static let pageHeaders: HTTPFields = [
        .contentType: "text/html; charset=utf-8",
        .cacheControl: "no-store",
        .contentSecurityPolicy: "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
        HTTPField.Name("X-Frame-Options")!: "DENY",
        HTTPField.Name("Referrer-Policy")!: "no-referrer",
    ]

    /// Saves `session` as the request's (a new cookie when it had none).
    private static func keep(_ session: WebSession, in context: APIRequestContext) {
        if !context.sessions.updateSession(session, expiresIn: sessionLifetime) {
            context.sessions.createSession(session, expiresIn: sessionLifetime)
        }
    }

    private static func redirect() -> Response {
        Response(status: .seeOther, headers: [.location: path, .cacheControl: "no-store"])
    }

    /// A typed name shown again in its field: without the characters HTML gives a meaning, which
    /// no account name has (Mustache escapes them, but by grapheme cluster).
    private static func safeEcho(_ name: String) -> String {
        String(String.UnicodeScalarView(name.unicodeScalars.filter { !"<>&\"'".unicodeScalars.contains($0) }).prefix(64))
    }

    private static func address(_ context: APIRequestContext) -> String {
        context.remoteAddress?.ipAddress ?? "unknown"
    }
}
