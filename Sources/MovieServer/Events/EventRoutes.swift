import Hummingbird

/// `GET /api/events` in the route table, so that the answers to a wrong method (`405`, `Allow`)
/// name it. The stream itself never reaches the router: ``EventStreamResponder`` answers it on
/// the connection's event loop.
enum EventRoutes {
    static func list<Context: RequestContext>(on api: some RouterMethods<Context>) {
        api.get("events") { _, _ -> Response in
            throw ErrorAnswer.notFound("The event stream is served before the router.")
        }
    }
}
