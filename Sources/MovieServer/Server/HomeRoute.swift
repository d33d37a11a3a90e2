import Hummingbird

/// `GET /`: where to go from the server's root. A browser (whose `Accept` names `text/html`)
/// gets a small page that points to the sign-in page and the API; a program gets the same two
/// addresses as JSON.
struct HomeRoute: Sendable {
    let templates: PageTemplates

    func register<Context: RequestContext>(on router: some RouterMethods<Context>) {
        router.get("/") { [templates] request, _ in
            let caching: HTTPFields = [.vary: "Accept", .cacheControl: "no-cache"]
            if request.headers[.accept]?.lowercased().contains("text/html") ?? false {
                return templates.page("home", ["title": "Marquee"], headers: caching)
            }
            var headers = caching
            headers[.contentType] = "application/json"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: #"{"api":"/api/","openapi":"/api/openapi.yaml","signIn":"/device"}"#)))
        }
    }
}
