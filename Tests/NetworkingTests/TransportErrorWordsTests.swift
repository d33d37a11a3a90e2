import AsyncHTTPClient
import Foundation
@testable import Networking
import NIOCore
import Testing

/// What the transport's failures say to a person: words, never a library's type or value.
@Suite("Transport error words")
struct TransportErrorWordsTests {
    let request: APIRequest

    init() throws {
        request = try APIRequest(endpoint: Endpoint(path: ["movies"]), baseURL: URL(string: "http://movies.test:8080/api/")!, defaultTimeout: .seconds(1))
    }

    @Test("a library failure without words of its own is named in words: no type name, no payload, no parenthesis")
    func libraryFailures() {
        for error in [HTTPClientError.uncleanShutdown, HTTPClientError.invalidHeaderFieldNames(["x y"]), ChannelError.ioOnClosedChannel, ChannelError.alreadyClosed] as [any Error] {
            let failure = TransportErrorMapping.networkError(for: error, request: request, bodyLimit: 1_000)
            let text = failure.description
            #expect(!text.contains("HTTPClientError") && !text.contains("ChannelError") && !text.contains("[\"") && !text.contains("(\""), "\(text)")
            #expect(text.firstMatch(of: #/[a-z][A-Z]/#) == nil, "no camelCase name: \(text)")
        }
        #expect(TransportErrorMapping.networkError(for: ChannelError.ioOnClosedChannel, request: request, bodyLimit: 1).description
            == "the connection to the server was lost (io on closed channel)")
        #expect(TransportErrorMapping.words(of: HTTPClientError.uncleanShutdown) == "unclean shutdown")
    }
}
