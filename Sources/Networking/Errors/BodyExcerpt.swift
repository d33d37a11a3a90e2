import Foundation

enum BodyExcerpt {
    static let maximumLength = 200

    /// A one-line excerpt of a response body for an error message: the `message` or
    /// `error_description` of a JSON error body when there is one, else the text with its
    /// whitespace folded, cut at ``maximumLength`` characters.
    static func make(from body: Data) -> String {
        let prefix = body.prefix(16 * 1024)
        if let object = try? JSONSerialization.jsonObject(with: prefix) as? [String: Any] {
            for key in ["error_description", "message", "reason", "error"] {
                if let text = object[key] as? String { return shortened(text) }
            }
        }
        let text = String(decoding: prefix, as: UTF8.self)
        if text.range(of: "<html", options: .caseInsensitive) != nil { return "" }
        return shortened(text)
    }

    private static func shortened(_ text: String) -> String {
        let folded = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return folded.count > maximumLength ? String(folded.prefix(maximumLength)) + "…" : folded
    }
}
