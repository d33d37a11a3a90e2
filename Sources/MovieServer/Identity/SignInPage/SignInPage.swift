import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdAuth
import Logging

/// The device flow's verification page (RFC 8628 §3.3), at `/device`: a person signs in (or signs
/// up), types the code their device shows (or follows the complete link, which fills it in), sees
/// which device asks, and approves or denies it. Server-rendered HTML with no script.
///
/// A visit stores nothing: a visitor's CSRF token and the code they came with are in a cookie the
/// server signs (``PageVisitor``). Signing in starts a stored session (hummingbird-auth's, under a
/// digest of its key, ``WebSession``) that is one of the person's sign-ins: listed with their
/// devices and ended with them. Every form carries a CSRF token; passwords are checked by
/// ``Accounts``; sign-ins, sign-ups, typed codes and new sessions are limited by ``SignInThrottle``,
/// by the client's address (``TrustedProxies``).
struct SignInPage: Sendable {
    static let path = "/device"
    static let maximumBodySize = 8 * 1024
    /// How long a page session lasts without use.
    static let sessionLifetime: Duration = .seconds(3600)
    /// The client id a page session is listed under among the person's sign-ins.
    static let clientID = "sign-in-page"
    /// The most page sessions one account keeps; signing in once more ends the least recently used.
    static let sessionsPerAccount = 10

    let accounts: Accounts
    let storage: any AccountStorage & SignInStorage & DeviceAuthorizationStorage
    let configuration: AuthConfiguration
    let templates: PageTemplates
    let throttle: SignInThrottle
    let proxies: TrustedProxies
    private let visitors: PageVisitorSeal

    init(
        accounts: Accounts, storage: any AccountStorage & SignInStorage & DeviceAuthorizationStorage & AttemptStorage,
        configuration: AuthConfiguration, templates: PageTemplates, proxies: TrustedProxies
    ) {
        self.accounts = accounts
        self.storage = storage
        self.configuration = configuration
        self.templates = templates
        self.proxies = proxies
        throttle = SignInThrottle(storage: storage, addressLimit: configuration.signInLimit)
        visitors = PageVisitorSeal(keys: configuration.signingKeys)
    }

    private var secure: Bool { configuration.publicURL?.lowercased().hasPrefix("https://") ?? false }

    func register(on router: Router<RoutedRequestContext>, sessionStorage: any WebSessionStorage) {
        let sessions = SessionMiddleware<RoutedRequestContext>(
            storage: StoragePersistDriver(storage: sessionStorage, now: configuration.now),
            configuration: SessionMiddlewareConfiguration(
                sessionCookieParameters: SessionCookieParameters(name: "marquee_session", path: Self.path, secure: secure, sameSite: .lax),
                keyPrefix: "page.", defaultSessionExpiration: Self.sessionLifetime
            )
        )
        router.group(RouterPath(Self.path)).add(middleware: sessions).addRoutes(routes)
    }

    /// The page's routes, under ``path`` and its session middleware: each a method of its own.
    var routes: RouteCollection<RoutedRequestContext> {
        let routes = RouteCollection(context: RoutedRequestContext.self)
        routes.get("", use: showPage)
        routes.post("sign-in", use: signIn)
        routes.post("sign-up", use: signUp)
        routes.post("code", use: enterCode)
        routes.post("decide", use: decide)
        routes.post("sign-out", use: signOut)
        return routes
    }

    /// The page: a signed-in person's code form (or the device waiting for a decision), else the
    /// sign-in form; a code from a link is only offered.
    private func showPage(_ request: Request, _ context: RoutedRequestContext) async throws -> Response {
        let typed = request.uri.queryParameters["user_code"].flatMap { UserCode(typed: String($0))?.letters }
        if var session = try await signedIn(context) {
            // A code from a link is only offered: the person sends it with the code form,
            // where every code tried is counted, before any device is shown.
            if let typed {
                session.prefillCode = typed
                session.userCode = nil
                Self.keep(session, in: context)
                return Self.redirect()
            }
            return try await show(session)
        }
        var visitor = visitor(of: request) ?? .new(now: configuration.now())
        if request.uri.queryParameters["user_code"] != nil {
            visitor.code = typed
            return Self.redirect(setting: visitors.cookie(visitor, secure: secure))
        }
        return render("sign-in", status: .ok, csrf: visitor.csrf, [:], setting: visitors.cookie(visitor, secure: secure))
    }

    /// Signs a person in with their name and password, counted against the throttle.
    private func signIn(_ request: Request, _ context: RoutedRequestContext) async throws -> Response {
        try await handle(request, context) { form, visit in
            let name = form.name ?? ""
            let address = Self.address(request, context, proxies: proxies)
            let attempt = try await throttle.signIn(account: name, address: address, now: configuration.now())
            guard case let .counted(id) = attempt else { return await tooMany(attempt, csrf: visit.csrf) }
            let checked: StoredAccount?
            do throws(AccountError) {
                checked = try await accounts.authenticate(name: name, password: form.password ?? "")
            } catch {
                return await busy(error, csrf: visit.csrf)
            }
            guard let account = checked else {
                context.logger.notice("a sign-in on the page failed")
                return render("sign-in", status: .unauthorized, csrf: visit.csrf, [
                    "message": "The account name or password is not right.", "name": Self.safeEcho(name),
                ])
            }
            try await throttle.forgive(id)
            return try await startSession(for: account, visit: visit, request: request, context: context)
        }
    }

    /// Makes an account, when the server takes new ones here, and signs its person in.
    private func signUp(_ request: Request, _ context: RoutedRequestContext) async throws -> Response {
        try await handle(request, context) { form, visit in
            guard configuration.allowsSignUp else {
                return render("sign-in", status: .forbidden, csrf: visit.csrf, ["message": "This server does not take new accounts here; ask its operator."])
            }
            let address = Self.address(request, context, proxies: proxies)
            let attempt = try await throttle.signUp(address: address, now: configuration.now())
            guard case .counted = attempt else { return await tooMany(attempt, csrf: visit.csrf) }
            let account: StoredAccount
            do throws(AccountError) {
                account = try await accounts.made(name: form.name ?? "", password: form.password ?? "")
            } catch {
                let status: HTTPResponse.Status = switch error {
                case .nameTaken: .conflict
                case .busy, .storage: .serviceUnavailable
                default: .badRequest
                }
                return render("sign-in", status: status, csrf: visit.csrf, ["message": error.description, "signUpName": Self.safeEcho(form.name ?? "")])
            }
            context.logger.notice("an account was made on the page")
            return try await startSession(for: account, visit: visit, request: request, context: context)
        }
    }

    /// Takes the code a device shows, counted against the throttle, and shows that device.
    private func enterCode(_ request: Request, _ context: RoutedRequestContext) async throws -> Response {
        try await handle(request, context) { form, visit in
            guard var session = visit.session else { return Self.redirect() }
            let address = Self.address(request, context, proxies: proxies)
            let attempt = try await throttle.code(accountID: session.accountID, address: address, now: configuration.now())
            guard case let .counted(id) = attempt else { return await tooMany(attempt, template: "code", csrf: session.csrf, account: session.account) }
            guard let code = UserCode(typed: form.user_code ?? ""), let pending = try await pendingAuthorization(code.letters) else {
                return render("code", status: .badRequest, csrf: session.csrf, [
                    "account": session.account,
                    "message": "That code is not one a device is waiting with, or it expired. Check it, or start again on the device.",
                ])
            }
            try await throttle.forgive(id)
            session.userCode = pending.userCode
            session.prefillCode = nil
            Self.keep(session, in: context)
            return Self.redirect()
        }
    }

    /// Approves or denies the device whose code the page showed.
    private func decide(_ request: Request, _ context: RoutedRequestContext) async throws -> Response {
        try await handle(request, context) { form, visit in
            guard var session = visit.session, let code = session.userCode, let decision = form.decision, ["approve", "deny"].contains(decision) else {
                return Self.redirect()
            }
            // The code the page showed, sent back with the decision: another tab (or a page
            // elsewhere) that put another code in the session since cannot have it decided.
            guard UserCode(typed: form.user_code ?? "")?.letters == code else {
                session.userCode = nil
                Self.keep(session, in: context)
                return render("code", status: .conflict, csrf: session.csrf, [
                    "account": session.account,
                    "message": "The code changed since this page was shown (another tab?). Enter the code your device shows again.",
                ])
            }
            session.userCode = nil
            Self.keep(session, in: context)
            let pending = try await pendingAuthorization(code)
            let approving = ApprovingAccount(name: session.account, id: session.accountID)
            let decided = try await answering { () async throws(StorageError) in
                try await storage.decideDeviceAuthorization(userCode: code, account: decision == "approve" ? approving : nil, now: configuration.now())
            }
            guard decided, let pending else {
                return render("done", status: .conflict, csrf: session.csrf, ["title": "Nothing to decide", "outcome": "This code expired or was decided already. Start again on the device."])
            }
            context.logger.notice("a device authorization was \(decision == "approve" ? "approved" : "denied") on the page")
            let outcome = decision == "approve"
                ? "\(pending.deviceName) is now signed in as \(session.account). You can close this page and go back to it."
                : "\(pending.deviceName) was not let in. If you did not start this, nothing was given away."
            return render("done", status: .ok, csrf: session.csrf, ["title": decision == "approve" ? "Approved" : "Denied", "outcome": outcome])
        }
    }

    /// Ends the page's sign-in.
    private func signOut(_ request: Request, _ context: RoutedRequestContext) async throws -> Response {
        try await handle(request, context) { _, visit in
            if let session = visit.session {
                _ = try await answering { () async throws(StorageError) in try await storage.endSignIns(ofAccount: session.account, id: session.signInID) }
            }
            context.sessions.clearSession()
            return Self.redirect()
        }
    }

    /// Who sends a form: the signed-in session, if any, and the CSRF token its page carried.
    private struct Visit {
        var session: WebSession?
        var visitor: PageVisitor?
        var csrf: String { session?.csrf ?? visitor?.csrf ?? "" }
    }

    /// Reads the form and checks that it came from this page: a browser's `Sec-Fetch-Site` and
    /// `Origin`, when it sends them, name this site, and its CSRF token is the signed-in session's
    /// (once a person is signed in, only theirs: a visitor cookie planted by a sibling site is
    /// worth nothing then) or the visitor cookie's. Then runs `body`. A refused form changes no
    /// session and no cookie but the visitor's (a new one, to try again with).
    private func handle(_ request: Request, _ context: RoutedRequestContext, _ body: (PageForm, Visit) async throws -> Response) async throws -> Response {
        let buffer = try await request.body.collect(upTo: Self.maximumBodySize)
        let session = try await signedIn(context)
        let visitor = visitor(of: request)
        let form: PageForm
        do {
            form = try URLEncodedFormDecoder().decode(PageForm.self, from: String(buffer: buffer))
        } catch {
            let fresh = visitor ?? .new(now: configuration.now())
            return render("sign-in", status: .badRequest, csrf: session?.csrf ?? fresh.csrf, [
                "message": "This form could not be read (it was not sent as a browser sends a form). Please try again.",
            ], setting: visitor == nil ? visitors.cookie(fresh, secure: secure) : nil)
        }
        let tokenMatches = session.map { $0.acceptsCSRF(form.csrf) } ?? (visitor?.acceptsCSRF(form.csrf) == true)
        guard tokenMatches, isSameOrigin(request) else {
            let fresh = visitor ?? .new(now: configuration.now())
            return render("sign-in", status: .forbidden, csrf: fresh.csrf, [
                "message": "This form was too old or did not come from this page. Please try again.",
            ], setting: visitor == nil ? visitors.cookie(fresh, secure: secure) : nil)
        }
        return try await body(form, Visit(session: session, visitor: visitor))
    }

    /// Whether a browser that says where a form came from says it came from this site: a
    /// `Sec-Fetch-Site` of `same-origin` (or `none`, typed by the person), and an `Origin` (other
    /// than `null`) whose host and port are the request's (or the public URL's). A client that
    /// sends neither, as scripts and old browsers do, is judged by the CSRF token alone.
    private func isSameOrigin(_ request: Request) -> Bool {
        if let site = request.headers[HTTPField.Name("Sec-Fetch-Site")!], !["same-origin", "none"].contains(site.lowercased()) { return false }
        // A browser sends `Origin: null` for a form of a page whose referrer policy is
        // `no-referrer`, as this page's is: it says nothing, and `Sec-Fetch-Site` does.
        guard let origin = request.headers[.origin], origin != "null" else { return true }
        guard let sent = URL(string: origin), let host = sent.host?.lowercased() else { return false }
        if let publicURL = configuration.publicURL.flatMap(URL.init(string:)), publicURL.host?.lowercased() == host, publicURL.port == sent.port {
            return true
        }
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return request.head.authority?.lowercased() == (sent.port.map { "\(shownHost):\($0)" } ?? shownHost)
    }

    /// The request's page session while its sign-in is on; one whose sign-in ended (signed out
    /// everywhere, a new password, the account removed) is forgotten, and its cookie with it.
    private func signedIn(_ context: RoutedRequestContext) async throws -> WebSession? {
        guard let session = context.sessions.session else { return nil }
        let signIn: StoredSignIn?
        signIn = try await answering { () async throws(StorageError) in try await storage.signIn(id: session.signInID) }
        guard let signIn, signIn.accountID == session.accountID, signIn.clientID == Self.clientID else {
            context.sessions.clearSession()
            return nil
        }
        return session
    }

    private func visitor(of request: Request) -> PageVisitor? {
        request.cookies[PageVisitor.cookieName].flatMap { visitors.open($0.value, now: configuration.now()) }
    }

    /// The page for a signed-in person as it stands: the code to type, or the device to approve.
    private func show(_ session: WebSession) async throws -> Response {
        if let code = session.userCode, let pending = try await pendingAuthorization(code) {
            return render("confirm", status: .ok, csrf: session.csrf, [
                "title": "Approve a device", "account": session.account, "device": pending.deviceName,
                "client": pending.clientID, "userCode": UserCode(typed: pending.userCode)?.description ?? pending.userCode,
            ])
        }
        let prefill = session.prefillCode.flatMap { UserCode(typed: $0)?.description } ?? ""
        return render("code", status: .ok, csrf: session.csrf, ["account": session.account, "userCode": prefill, "fromLink": !prefill.isEmpty])
    }

    private func pendingAuthorization(_ userCode: String) async throws -> StoredDeviceAuthorization? {
        let found: StoredDeviceAuthorization?
        found = try await answering { () async throws(StorageError) in try await storage.deviceAuthorization(userCode: userCode) }
        guard let found, found.state == .pending, found.expiresAt > configuration.now() else { return nil }
        return found
    }

    /// Signs `account` in on the page: a new sign-in of the account's, and a new session (a new
    /// cookie, so a session id seen before is worth nothing after) that is it. A code that came
    /// before is only offered. An address that started ``SignInThrottle/sessionLimit`` sessions in
    /// the window waits; an account keeps its ``sessionsPerAccount`` most recent page sessions.
    private func startSession(for account: StoredAccount, visit: Visit, request: Request, context: RoutedRequestContext) async throws -> Response {
        let address = Self.address(request, context, proxies: proxies)
        let attempt = try await throttle.session(address: address, now: configuration.now())
        guard case .counted = attempt else { return await tooMany(attempt, csrf: visit.csrf) }
        let now = configuration.now()
        let signIn = StoredSignIn(
            id: UUID().uuidString.lowercased(), account: account.name, accountID: account.id, clientID: Self.clientID,
            deviceName: "the sign-in page in a web browser", createdAt: now, lastUsedAt: now
        )
        guard try await answering({ () async throws(StorageError) in try await storage.saveSignIn(signIn) }) else {
            return render("sign-in", status: .unauthorized, csrf: visit.csrf, ["message": "The account name or password is not right."])
        }
        try await answering { () async throws(StorageError) in
            let older = try await storage.signIns(ofAccount: account.name).filter { $0.clientID == Self.clientID }.dropFirst(Self.sessionsPerAccount)
            for ended in older { _ = try await storage.endSignIns(ofAccount: account.name, id: ended.id) }
        }
        let prefill = visit.visitor?.code ?? visit.session?.prefillCode
        if let previous = visit.session {
            _ = try await answering { () async throws(StorageError) in try await storage.endSignIns(ofAccount: previous.account, id: previous.signInID) }
        }
        context.sessions.clearSession()
        context.sessions.createSession(WebSession(signIn: signIn, prefillCode: prefill), expiresIn: Self.sessionLifetime)
        return Self.redirect(setting: visitors.cookie(nil, secure: secure))
    }

    /// A 429, given after ``SignInThrottle/tarpit``: a client that ignores `Retry-After` and asks
    /// again at once gets its answers no faster than one a second a connection, so a flood costs
    /// the server sleeping tasks, not the CPU the movie paths need.
    private func tooMany(_ outcome: SignInThrottle.Outcome, template: String = "sign-in", csrf: String, account: String = "") async -> Response {
        let wait = if case let .wait(seconds) = outcome { seconds } else { 1 }
        try? await Task.sleep(for: SignInThrottle.tarpit)
        var response = render(template, status: .tooManyRequests, csrf: csrf, ["account": account, "message": "Too many tries. Wait \(wait) seconds, then try again."])
        response.headers[.retryAfter] = String(wait)
        return response
    }

    /// A 503 when the password could not be checked now (too many checks waiting, or the
    /// storage failed), after the same ``SignInThrottle/tarpit``.
    private func busy(_ error: AccountError, csrf: String) async -> Response {
        try? await Task.sleep(for: SignInThrottle.tarpit)
        var response = render("sign-in", status: .serviceUnavailable, csrf: csrf, ["message": error.description])
        response.headers[.retryAfter] = "1"
        return response
    }

    private func render(_ template: String, status: HTTPResponse.Status, csrf: String, _ values: [String: Any], setting cookie: String? = nil) -> Response {
        var all: [String: Any] = ["title": "Sign in", "csrf": csrf, "signUp": configuration.allowsSignUp]
        all.merge(values) { _, new in new }
        if template == "code", all["title"] as? String == "Sign in" { all["title"] = "Enter the code" }
        var headers: HTTPFields = [.cacheControl: "no-store"]
        if let cookie { headers.append(HTTPField(name: .setCookie, value: cookie)) }
        return templates.page(template, all, status: status, headers: headers)
    }

    /// Saves `session` as the request's.
    private static func keep(_ session: WebSession, in context: RoutedRequestContext) {
        if !context.sessions.updateSession(session, expiresIn: sessionLifetime) {
            context.sessions.createSession(session, expiresIn: sessionLifetime)
        }
    }

    private static func redirect(setting cookie: String? = nil) -> Response {
        var headers: HTTPFields = [.location: path, .cacheControl: "no-store"]
        if let cookie { headers.append(HTTPField(name: .setCookie, value: cookie)) }
        return Response(status: .seeOther, headers: headers)
    }

    /// A typed name shown again in its field: without the characters HTML gives a meaning, which
    /// no account name has (Mustache escapes them, but by grapheme cluster).
    private static func safeEcho(_ name: String) -> String {
        String(String.UnicodeScalarView(name.unicodeScalars.filter { !"<>&\"'".unicodeScalars.contains($0) }).prefix(64))
    }

    /// The party a request counts against: the client's address (behind a trusted proxy, the one
    /// it forwarded), an IPv6 address by its /64.
    static func address(_ request: Request, _ context: RoutedRequestContext, proxies: TrustedProxies) -> String {
        let peer = context.remoteAddress?.ipAddress.flatMap { IPAddress($0) }
        let lines = proxies.isEmpty ? [] : request.headers[values: HTTPField.Name(proxies.header.rawValue)!]
        return proxies.client(peer: peer, headerLines: lines)?.party ?? "unknown"
    }
}
