import Foundation
import HTTPTypes
import Hummingbird
import Mustache

/// The server's HTML pages (`Resources/pages/*.mustache`), read once at start, and the one way
/// they leave the server: ``page(_:_:status:headers:)``, which gives every page the same
/// ``pageHeaders``. Every value is HTML-escaped by Mustache's `{{name}}`; no template uses the
/// unescaped form.
struct PageTemplates: Sendable {
    private let library: MustacheLibrary

    /// What every page tells the browser: it is HTML, loads nothing from elsewhere and runs no
    /// script, sends its forms only here, is shown in no frame (clickjacking), and its address is
    /// not passed on as a referrer.
    static let pageHeaders: HTTPFields = [
        .contentType: "text/html; charset=utf-8",
        .contentSecurityPolicy: "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
        HTTPField.Name("X-Frame-Options")!: "DENY",
        HTTPField.Name("Referrer-Policy")!: "no-referrer",
    ]

    init() throws {
        guard let folder = Bundle.module.url(forResource: "pages", withExtension: nil) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "pages"])
        }
        var library = MustacheLibrary()
        for file in try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil) where file.pathExtension == "mustache" {
            try library.register(String(contentsOf: file, encoding: .utf8), named: file.deletingPathExtension().lastPathComponent)
        }
        self.library = library
    }

    /// The page `name` filled with `values`, as an answer with ``pageHeaders`` and `headers` (its
    /// caching, a cookie).
    func page(_ name: String, _ values: [String: Any], status: HTTPResponse.Status = .ok, headers: HTTPFields) -> Response {
        var fields = Self.pageHeaders
        fields.append(contentsOf: headers)
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(string: library.render(values, withTemplate: name) ?? "")))
    }
}
