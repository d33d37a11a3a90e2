import Networking
import Testing

/// What a status failure says to a user.
@Suite("NetworkError")
struct NetworkErrorTests {
    @Test("a status is shown with its reason phrase, and without a dangling space when HTTP names none", arguments: [
        (304, "", "the server answered 304 Not Modified"),
        (403, "", "the server answered 403 Forbidden"),
        (503, "busy", "the server answered 503 Service Unavailable: busy"),
        (599, "", "the server answered 599"),
        (299, "odd", "the server answered 299: odd"),
    ])
    func describesStatuses(code: Int, excerpt: String, message: String) {
        #expect(NetworkError.status(code: code, excerpt: excerpt).description == message)
    }
}
