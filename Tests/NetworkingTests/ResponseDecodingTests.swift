import Foundation
import Networking
import Testing

@Suite("Response decoding")
struct ResponseDecodingTests {
    struct Item: Decodable, Equatable {
        let id: Int
        let tags: [Tag]
    }

    struct Tag: Decodable, Equatable {
        let name: String
    }

    @Test("whitespace around the body is ignored")
    func ignoresWhitespace() throws {
        let body = Data("\n\n  [{\"id\":1,\"tags\":[]}]  \r\n".utf8)
        let items = try ResponseDecoding.decode([Item].self, from: body)
        #expect(items == [Item(id: 1, tags: [])])
    }

    @Test("a wrong type names its JSON path")
    func reportsTheTypeMismatchPath() {
        let body = Data(#"[{"id":1,"tags":[]},{"id":2,"tags":[{"name":3}]}]"#.utf8)
        #expect(throws: NetworkError.self) { try ResponseDecoding.decode([Item].self, from: body) }
        do {
            _ = try ResponseDecoding.decode([Item].self, from: body)
        } catch {
            guard case let .cannotDecode(path, _) = error else { Issue.record("unexpected \(error)"); return }
            #expect(path == "$[1].tags[0].name")
        }
    }

    @Test("a missing key names its JSON path")
    func reportsTheMissingKeyPath() {
        do {
            _ = try ResponseDecoding.decode([Item].self, from: Data(#"[{"id":1}]"#.utf8))
            Issue.record("decoding should fail")
        } catch {
            #expect(error == .cannotDecode(path: "$[0].tags", reason: "the key is missing"))
        }
    }

    @Test("a body that is not JSON fails at the root", arguments: ["<html>Not Found</html>", "", "[{\"id\":1,"])
    func reportsInvalidJSON(text: String) {
        do {
            _ = try ResponseDecoding.decode([Item].self, from: Data(text.utf8))
            Issue.record("decoding should fail")
        } catch {
            guard case let .cannotDecode(path, _) = error else { Issue.record("unexpected \(error)"); return }
            #expect(path == "$")
        }
    }
}
