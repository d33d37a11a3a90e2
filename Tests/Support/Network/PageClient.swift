import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// A person at the sign-in page, as a browser without scripts behaves: it keeps the cookies
/// (by name, each replaced or forgotten as the server says), sends forms with the CSRF token the last page gave, and follows a GET's redirect (a
/// POST's 303 is the test's to check and ``follow(_:)``).
public final class PageClient: @unchecked Sendable {
    public let port: Int
    /// The cookies kept, by name.
    public private(set) var cookies: [String: String] = [:]
    /// The `Cookie` header sent with the next request; nil when none is kept.
    public var cookie: String? {
        cookies.isEmpty ? nil : cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
    }
    public private(set) var csrf: String?
    /// The code the last page's form holds (the code page's field, the approval's hidden one).
    public private(set) var formCode: String?
    public private(set) var lastPage = ""
    /// Each request sent and the status it got (`POST /device/sign-up 303`), for a failure's message.
    public private(set) var history: [String] = []
    /// Sent as `X-Forwarded-For` with each request when set: the browser as a proxy names it.
    public var forwardedFor: String?
    /// Sent with each request as they are (`Origin`, `Sec-Fetch-Site`).
    public var extraHeaders: [(String, String)] = []
    /// Every `Set-Cookie` header the server sent, as sent.
    public private(set) var setCookies: [String] = []
    private static let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))

    public struct Page: Sendable {
        public let status: Int
        public let headers: HTTPHeaders
        public let html: String
    }

    public init(port: Int) {
        self.port = port
    }

    /// Forgets the cookie `name`, or keeps `value` under it, as another browser's cookie would be.
    public func setCookie(_ name: String, _ value: String?) {
        cookies[name] = value
    }

    @discardableResult
    public func get(_ path: String) async throws -> Page {
        try await follow(try await send(path, method: .GET, body: nil))
    }

    /// Posts `fields` (and the CSRF token, unless `csrf` is given, and the code the last page's
    /// form held, unless `user_code` is given) form-encoded to `path`.
    @discardableResult
    public func post(_ path: String, _ fields: [String: String], csrf: String? = nil) async throws -> Page {
        var all = fields
        all["csrf"] = csrf ?? self.csrf ?? ""
        if all["user_code"] == nil, let formCode { all["user_code"] = formCode }
        let body = all.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.encode($0.value))" }.joined(separator: "&")
        return try await send(path, method: .POST, body: body)
    }

    /// Posts `body` to `path` as it is, labelled form-encoded: what a hostile client can send.
    @discardableResult
    public func postRaw(_ path: String, body: String) async throws -> Page {
        try await send(path, method: .POST, body: body)
    }

    /// Goes where a 303 points, as a browser would.
    @discardableResult
    public func follow(_ page: Page) async throws -> Page {
        guard page.status == 303, let location = page.headers.first(name: "location") else { return page }
        return try await send(location, method: .GET, body: nil)
    }

    /// A person at the page the whole way: opens the device's complete link (or the page, then
    /// types `code`), signs up or in as `name`, confirms the code, and approves or denies.
    @discardableResult
    public func decide(_ code: String, as name: String, password: String = "correct horse", signUp: Bool, approve: Bool = true) async throws -> Page {
        try await get("/device?user_code=\(code)")
        if !lastPage.contains("Approve a device") {
            if !lastPage.contains("id=\"user-code\"") {
                // A person told "temporarily unavailable" (503: the database was busy past its
                // query timeout, as it can be under a loaded test run) tries again.
                var path = signUp ? "/device/sign-up" : "/device/sign-in"
                var answer = try await post(path, ["name": name, "password": password])
                for _ in 0..<5 where answer.status == 503 {
                    try await Task.sleep(for: .seconds(1))
                    answer = try await post(path, ["name": name, "password": password])
                    // The account was made before the 503 (signing in to it failed): what is left is to sign in.
                    if answer.status == 409, path == "/device/sign-up" {
                        path = "/device/sign-in"
                        answer = try await post(path, ["name": name, "password": password])
                    }
                }
                try await follow(answer)
            }
            try await follow(try await post("/device/code", ["user_code": code]))
        }
        return try await post("/device/decide", ["decision": approve ? "approve" : "deny"])
    }

    private func send(_ path: String, method: HTTPMethod, body: String?) async throws -> Page {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.method = method
        if let cookie { request.headers.add(name: "Cookie", value: cookie) }
        if let forwardedFor { request.headers.add(name: "X-Forwarded-For", value: forwardedFor) }
        for (name, value) in extraHeaders { request.headers.add(name: name, value: value) }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(ByteBuffer(string: body))
        }
        let response = try await Self.client.execute(request, timeout: .seconds(30))
        let html = String(buffer: try await response.body.collect(upTo: 1 << 20))
        history.append("\(method.rawValue) \(path.split(separator: "?")[0]) \(response.status.code)")
        for header in response.headers["set-cookie"] {
            setCookies.append(header)
            let pair = header.split(separator: ";")[0].split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2 else { continue }
            let forgotten = header.contains("Max-Age=0") || header.lowercased().contains("expires=thu, 01 jan 1970")
            cookies[pair[0]] = forgotten ? nil : pair[1]
        }
        if let match = html.firstMatch(of: /name="csrf" value="([^"]+)"/) { csrf = String(match.1) }
        if !html.isEmpty { formCode = html.firstMatch(of: /name="user_code" value="([^"]*)"/).map { String($0.1) } }
        if !html.isEmpty { lastPage = html }
        return Page(status: Int(response.status.code), headers: response.headers, html: html)
    }

    private static func encode(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }
}
