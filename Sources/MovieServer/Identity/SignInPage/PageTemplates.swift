import Foundation
import Mustache

/// The sign-in page's templates (`Resources/pages/*.mustache`), read once at start. Every value is
/// HTML-escaped by Mustache's `{{name}}`; no template uses the unescaped form.
struct PageTemplates: Sendable {
    private let library: MustacheLibrary

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

    /// The page `name` filled with `values`.
    func render(_ name: String, _ values: [String: Any]) -> String {
        library.render(values, withTemplate: name) ?? ""
    }
}
