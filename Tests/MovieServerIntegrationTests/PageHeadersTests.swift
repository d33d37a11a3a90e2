import Foundation
import Hummingbird
@testable import MovieServer
import NetworkTestSupport
import ServerTestSupport
import Testing

/// Every HTML page the server writes goes out with the same security headers: no frame may show
/// it, it loads nothing from elsewhere, and its address is not sent on. The routes are read from
/// the server's own list, so a page added later without the headers fails here.
@Suite("The headers of every page")
struct PageHeadersTests {
    typealias Route = Router<RoutedRequestContext>.RouteDescription

    static let required = [
        "Content-Security-Policy": "frame-ancestors 'none'",
        "X-Frame-Options": "DENY",
        "Referrer-Policy": "no-referrer",
    ]

    /// What is wrong with the headers of `page`, if it is HTML: each header missing, or without
    /// the value it must have.
    static func problems(_ page: PageClient.Page, at request: String) -> [String] {
        guard page.headers.first(name: "content-type")?.lowercased().hasPrefix("text/html") == true else { return [] }
        return required.compactMap { name, value in
            page.headers[name].contains { $0.contains(value) } ? nil : "\(request) \(page.status): \(name) lacks \(value)"
        }
    }

    /// A route's path with each parameter filled in.
    static func path(_ route: Route) -> String {
        let filled = route.path.description.split(separator: "/").map { part in
            part.hasPrefix(":") || part.hasPrefix("{") ? "1" : part.hasPrefix("*") ? "x" : String(part)
        }
        return "/" + filled.joined(separator: "/")
    }

    /// The `GET`s first, so that a person's `POST`s (a sign-out among them) come last.
    static func order(_ route: Route) -> String {
        (route.method == .post ? "1 " : "0 ") + route.path.description
    }

    /// Asks every route as `page` would, with `Accept: text/html`, and returns each request with
    /// its answer.
    static func walk(_ routes: [Route], as page: PageClient) async throws -> [(request: String, page: PageClient.Page)] {
        var answers: [(String, PageClient.Page)] = []
        for route in routes {
            let path = path(route)
            let answer = switch route.method {
            case .post: try await page.post(path, ["name": "nobody", "password": "wrong password", "user_code": "BCDF-GHJK", "decision": "deny"])
            default: try await page.get(path)
            }
            answers.append(("\(route.method) \(path)", answer))
        }
        return answers
    }

    @Test("every route that answers HTML, to a visitor and to a person signed in, and every page of the sign-in flow, sends the page headers")
    func everyPage() async throws {
        try await withServerClient(auth: PersonSignIn.auth()) { server in
            let routes = try server.server.server.routeListing(templates: PageTemplates()).routes
                .filter { $0.method == .get || $0.method == .post }
                .sorted { Self.order($0) < Self.order($1) }
            var answers: [(request: String, page: PageClient.Page)] = []

            let visitor = PageClient(port: server.server.port)
            visitor.extraHeaders = [("Accept", "text/html")]
            try await visitor.get(SignInPage.path)
            answers += try await Self.walk(routes, as: visitor)

            let person = PageClient(port: server.server.port)
            person.extraHeaders = [("Accept", "text/html")]
            let started = try await DeviceFlowClient(server: server).start(deviceName: "laptop")
            answers.append(("GET /device", try await person.get(SignInPage.path)))
            answers.append(("sign up", try await person.follow(try await person.post("/device/sign-up", ["name": "alice", "password": "correct horse"]))))
            answers.append(("enter a code", try await person.follow(try await person.post("/device/code", ["user_code": started.userCode]))))
            answers.append(("approve", try await person.post("/device/decide", ["decision": "approve"])))
            answers += try await Self.walk(routes, as: person)

            let titles = Set(answers.compactMap { $0.page.html.firstMatch(of: /<title>([^<]*) ·/).map { String($0.1) } })
            #expect(titles.isSuperset(of: ["Marquee", "Sign in", "Enter the code", "Approve a device", "Approved"]), "every kind of page was seen: \(titles)")
            #expect(routes.count > 10, "the server's routes were listed")
            let problems = answers.flatMap { Self.problems($0.page, at: $0.request) }
            #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        }
    }
}
