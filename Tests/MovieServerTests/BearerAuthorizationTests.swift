@testable import MovieServer
import Testing

@Suite("Reading a Bearer authorization header")
struct BearerAuthorizationTests {
    @Test(
        "the token after the scheme in any case and one or more spaces, without the blanks around it",
        arguments: [
            ("Bearer abc.def-ghi_", "abc.def-ghi_"), ("bearer abc", "abc"), ("BEARER abc", "abc"), ("bEaReR abc", "abc"),
            ("Bearer    abc", "abc"), ("Bearer abc  \t", "abc"), ("  Bearer abc", "abc"), ("Bearer \tabc", "abc"),
            ("Bearer a b", "a b"), ("Bearer é", "é"),
        ]
    )
    func reads(header: String, token: String) {
        #expect(BearerAuthorization.token(in: header) == token)
    }

    @Test(
        "no token: another scheme, no space after the scheme, nothing after it",
        arguments: ["", "Bearer", "Bearer ", "Bearer  \t ", "Bearerabc", "Bearer\tabc", "Basic abc", "Bear abc", "Bearers abc", "Bearez abc", "bearer\u{0}abc", "Béarer abc"]
    )
    func refuses(header: String) {
        #expect(BearerAuthorization.token(in: header) == nil)
    }
}
