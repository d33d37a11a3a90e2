import Hummingbird

/// `GET /api/auth` of the original contract: a fixed token as plain text.
///
/// The original site had no real authentication; this path stays for clients written against it.
struct LegacyAuthRoute: Sendable {
    static let token = "heffhq738h84aibiweh"

    func register<Context: RequestContext>(on router: some RouterMethods<Context>) {
        router.get("auth") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: Self.token)))
        }
    }
}
