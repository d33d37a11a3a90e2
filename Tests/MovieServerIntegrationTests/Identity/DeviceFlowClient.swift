import Foundation
import MovieServer
import NetworkTestSupport

/// A device in the device flow (RFC 8628), over raw HTTP: asks for a code, polls the token endpoint.
struct DeviceFlowClient {
    let server: ServerClient
    var client = ClientCredentials.development

    struct Started {
        let deviceCode: String
        let userCode: String
        let verificationURI: String
        let verificationURIComplete: String
        let interval: Int
        let expiresIn: Int
    }

    struct Poll: Sendable {
        let status: Int
        let error: String?
        let accessToken: String?
        let refreshToken: String?

        init(_ answer: ServerClient.Answer) {
            status = answer.status
            error = answer.json?["error"] as? String
            accessToken = answer.json?["access_token"] as? String
            refreshToken = answer.json?["refresh_token"] as? String
        }
    }

    func start(deviceName: String = "laptop") async throws -> Started {
        let answer = try await server.get(
            "/api/auth/device", method: .POST, headers: TokenForms.form,
            body: "client_id=\(client.id)&client_secret=\(client.secret)&device_name=\(deviceName.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")"
        )
        guard answer.status == 200, let json = answer.json,
              let deviceCode = json["device_code"] as? String, let userCode = json["user_code"] as? String,
              let uri = json["verification_uri"] as? String, let complete = json["verification_uri_complete"] as? String,
              let interval = json["interval"] as? Int, let expiresIn = json["expires_in"] as? Int
        else { throw Failure(description: "device authorization answered \(answer.status): \(String(decoding: answer.body, as: UTF8.self))") }
        return Started(deviceCode: deviceCode, userCode: userCode, verificationURI: uri, verificationURIComplete: complete, interval: interval, expiresIn: expiresIn)
    }

    func poll(_ deviceCode: String) async throws -> Poll {
        let answer = try await server.get(
            "/api/auth/token", method: .POST, headers: TokenForms.form,
            body: "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Adevice_code&device_code=\(deviceCode)&client_id=\(client.id)&client_secret=\(client.secret)"
        )
        return Poll(answer)
    }

    func refresh(_ token: String) async throws -> Poll {
        let answer = try await server.get(
            "/api/auth/token", method: .POST, headers: TokenForms.form,
            body: TokenForms.refreshGrant(token, client: client.id, secret: client.secret)
        )
        return Poll(answer)
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }
}

/// A person's tokens, got the whole way: a device asks, the person signs up (or in) on the page,
/// types the code and approves, and the device's poll gets the tokens.
enum PersonSignIn {
    /// Fast bcrypt for tests (cost 4, the least), on a server that needs tokens.
    static func auth(clients: [ClientCredentials] = [.development], now: @escaping @Sendable () -> Date = { Date() }) -> AuthConfiguration {
        var auth = AuthConfiguration(client: clients[0], otherClients: Array(clients.dropFirst()), now: now)
        auth.passwordHashCost = 4
        return auth
    }

    static func tokens(
        _ name: String, password: String = "correct horse", signUp: Bool = true, device: String = "laptop",
        client: ClientCredentials = .development, on server: ServerClient
    ) async throws -> (access: String, refresh: String) {
        let flow = DeviceFlowClient(server: server, client: client)
        let started = try await flow.start(deviceName: device)
        let page = PageClient(port: server.server.port)
        try await page.get("/device")
        let signedIn = try await page.post(signUp ? "/device/sign-up" : "/device/sign-in", ["name": name, "password": password])
        guard signedIn.status == 303 else { throw DeviceFlowClient.Failure(description: "signing in answered \(signedIn.status): \(signedIn.html)") }
        try await page.follow(signedIn)
        let entered = try await page.post("/device/code", ["user_code": started.userCode])
        guard entered.status == 303 else { throw DeviceFlowClient.Failure(description: "the code answered \(entered.status)") }
        try await page.follow(entered)
        let decided = try await page.post("/device/decide", ["decision": "approve"])
        guard decided.status == 200 else { throw DeviceFlowClient.Failure(description: "approving answered \(decided.status)") }
        let poll = try await flow.poll(started.deviceCode)
        guard let access = poll.accessToken, let refresh = poll.refreshToken else {
            throw DeviceFlowClient.Failure(description: "the poll after approval answered \(poll.status) \(poll.error ?? "")")
        }
        return (access, refresh)
    }
}

enum TokenClaims {
    /// The claims of a JWT, unverified.
    static func of(_ token: String) -> [String: Any] {
        let parts = token.split(separator: ".")
        guard parts.count == 3 else { return [:] }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64) else { return [:] }
        return (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
    }
}
