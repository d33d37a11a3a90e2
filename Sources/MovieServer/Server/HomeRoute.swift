import Hummingbird

/// `GET /`: where to go from the server's root. A browser (whose `Accept` names `text/html`)
/// gets a small page that points to the sign-in page and the API; a program gets the same two
/// addresses as JSON.
struct HomeRoute: Sendable {
    let templates: PageTemplates

    func register<Context: RequestContext>(on router: some RouterMethods<Context>) {
        router.get("/") { [templates] request, _ in
            let html = request.headers[.accept]?.lowercased().contains("text/html") ?? false
            let body = html
                ? templates.render("home", ["title": "Marquee"])
                : #"{"api":"/api/","openapi":"/api/openapi.yaml","signIn":"/device"}"#
            return Response(
                status: .ok,
                headers: [.contentType: html ? "text/html; charset=utf-8" : "application/json", .vary: "Accept", .cacheControl: "no-cache"],
                body: .init(byteBuffer: ByteBuffer(string: body))
            )
        }
    }
}
