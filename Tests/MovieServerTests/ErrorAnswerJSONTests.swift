import Foundation
@testable import MovieServer
import Testing

@Suite("Error answers' JSON")
struct ErrorAnswerJSONTests {
    private struct EncodedByFoundation: Encodable {
        let error: String
        let error_description: String
    }

    @Test("an error body is the bytes JSONEncoder gives (sorted keys, slashes as they are), whatever the message holds")
    func sameBytesAsJSONEncoder() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var messages = [
            "There is no resource at /api/nothing.", "", "quote \" backslash \\ slash / tab \t newline \n return \r",
            "\u{08}\u{0C}\u{00}\u{01}\u{1F}\u{7F}", "é 😀 \u{2028} \u{FEFF} 漢字", String(repeating: "\\\"", count: 50),
        ]
        messages += (0..<128).map { "byte \(String(UnicodeScalar(UInt8($0))))." }
        for message in messages {
            for code in ["not_found", "invalid_request", "a\"b"] {
                let answer = ErrorAnswer(.notFound, code: code, message: message)
                let expected = try encoder.encode(EncodedByFoundation(error: code, error_description: message))
                #expect(answer.body == expected, "\(message.debugDescription)")
            }
        }
    }
}
