@testable import MovieServer
import Testing

/// The query a request's span carries: no secret-bearing parameter's value, whatever its place,
/// its case or its encoding, and every other parameter as it was sent.
@Suite("The query in a request's span")
struct RequestSpansTests {
    /// Every name on the list, and names that contain one of the words.
    static let secretNames = RequestSpans.redactedParameters.sorted() + ["new_password", "id_token_hint", "client_secret_jwt", "x-api-token"]

    /// The ways one name can be sent and still be read as itself, or would be by a laxer reader.
    static func spellings(of name: String) -> [String] {
        let encodedEach = name.utf8.map { "%" + String($0, radix: 16, uppercase: true) }.joined()
        let encodedUnderscore = name.replacingOccurrences(of: "_", with: "%5f")
        let mixedCase = String(name.enumerated().map { $0.offset.isMultiple(of: 2) ? Character($0.element.uppercased()) : $0.element })
        return [name, name.uppercased(), mixedCase, encodedEach, encodedUnderscore, "%25" + encodedEach.dropFirst(), " \(name)", "\(name)+"]
    }

    /// `parameter` placed first, in the middle, last, alone, twice, and after a `;`.
    static func placements(of parameter: String) -> [String] {
        [
            parameter, "\(parameter)&query=heat&limit=5", "query=heat&\(parameter)&limit=5", "query=heat&limit=5&\(parameter)",
            "\(parameter)&query=heat&\(parameter)", "query=heat;\(parameter)", "&&\(parameter)&",
        ]
    }

    @Test("every secret-bearing name, however spelled and wherever placed, has its value redacted", arguments: Self.secretNames)
    func redacted(name: String) {
        for spelling in Self.spellings(of: name) {
            for value in ["s3cr3t-value", "s3cr3t%20value", "s3cr3t=with=equals", ""] {
                for query in Self.placements(of: "\(spelling)=\(value)") {
                    let recorded = RequestSpans.redactedQuery(query[...])
                    #expect(!value.isEmpty ? !recorded.contains("s3cr3t") : recorded.contains("REDACTED"), "\(query) → \(recorded)")
                    #expect(recorded.contains("\(spelling)=REDACTED"), "\(query) → \(recorded)")
                }
            }
        }
    }

    @Test("the other parameters are kept as they were sent, in their order")
    func othersKept() {
        for query in ["query=heat&limit=5", "query=caf%C3%A9&cursor=abc.def&limit=", "year=2016", "", "a&b=&=c", "decision=approve&name=alice&code_challenge=x"] {
            #expect(RequestSpans.redactedQuery(query[...]) == query)
        }
        #expect(RequestSpans.redactedQuery("query=heat&password=hunter2&limit=5") == "query=heat&password=REDACTED&limit=5")
    }
}
