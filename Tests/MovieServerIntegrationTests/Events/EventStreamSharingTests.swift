import Foundation
import MarqueeTestSupport
import MovieServer
import NetworkTestSupport
import Networking
import Testing

/// An attacker with self-made accounts against a person, over real sockets from several loopback
/// addresses (127.0.0.2 and up are other hosts on Linux): the caps per address and per account,
/// and the instance's last streams kept for whoever holds none.
@Suite("Event streams shared between addresses", .timeLimit(.minutes(3)))
struct EventStreamSharingTests {
    /// A stream request sent from `host` on a connection of its own, read to the end of its
    /// answer's head (and, for a refusal, its JSON).
    struct RawStream {
        let connection: RawConnection
        let status: Int
        let text: String

        static func open(port: Int, from host: String, token: String) async throws -> RawStream {
            let request = "GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n\r\n"
            let connection = try await RawConnection.open(port: port, from: host, sending: request)
            let head = try #require(try await connection.read(until: "\r\n\r\n", limit: .seconds(20)), "no answer from \(host)")
            let status = try #require(head.prefix { $0 != "\r" }.split(separator: " ").dropFirst().first.flatMap { Int($0) })
            let text = status == 200 ? head : try await connection.read(until: "}", limit: .seconds(20)) ?? head
            return RawStream(connection: connection, status: status, text: text)
        }

        var error: String? {
            guard let start = text.range(of: "\r\n\r\n")?.upperBound else { return nil }
            let body = try? JSONSerialization.jsonObject(with: Data(text[start...].utf8)) as? [String: Any]
            return body?["error"] as? String
        }

        var hasRetryAfter: Bool { text.lowercased().contains("\r\nretry-after: ") }
    }

    @Test("three addresses with six self-made accounts cannot take a person's stream on an instance of 20: each address holds at most 8, each account 4, and the last 5 places go to those who hold none")
    func selfMadeAccountsLeaveAPersonTheirStream() async throws {
        var feed = FeedSettings()
        feed.maximumStreams = 20
        try await withServerClient(auth: PersonSignIn.auth(), feed: feed) { client in
            let port = client.server.port
            var socks: [String] = []
            for index in 0..<6 { socks.append(try await PersonSignIn.tokens("sock\(index)", on: client).access) }
            let alice = try await PersonSignIn.tokens("alice", on: client).access
            var open: [RawStream] = []
            defer { open.forEach { stream in Task { await stream.connection.close() } } }
            func stream(_ host: String, _ token: String) async throws -> RawStream {
                let opened = try await RawStream.open(port: port, from: host, token: token)
                open.append(opened)
                return opened
            }

            for token in socks[0...1] { for _ in 0..<4 { #expect(try await stream("127.0.0.1", token).status == 200) } }
            let ninth = try await stream("127.0.0.1", socks[2])
            #expect(ninth.status == 429 && ninth.error == "too_many_streams" && ninth.hasRetryAfter, "a third account adds nothing to its address's 8: \(ninth.text)")
            let fifth = try await stream("127.0.0.3", socks[0])
            #expect(fifth.status == 429 && fifth.error == "too_many_streams", "an account's fifth stream, from another address: \(fifth.text)")

            for token in socks[2...3] { for _ in 0..<3 { #expect(try await stream("127.0.0.3", token).status == 200) } }
            #expect(try await stream("127.0.0.3", socks[2]).status == 200, "the fifteenth")
            let reserved = try await stream("127.0.0.3", socks[3])
            #expect(reserved.status == 503 && reserved.error == "temporarily_unavailable" && reserved.hasRetryAfter, "the last 5 are kept: \(reserved.text)")
            #expect(try await stream("127.0.0.4", socks[4]).status == 200, "a first stream from an address that holds none")
            for token in [socks[4], socks[5], socks[5], socks[5]] { #expect(try await stream("127.0.0.4", token).status == 503, "more from it") }

            let person = try await stream("127.0.0.2", alice)
            #expect(person.status == 200, "the person gets their stream: \(person.text)")
            #expect(client.server.server.openEventStreams == 17)
        }
    }

    @Test("behind a trusted proxy, IPv6 clients of one /64 are one address; another /64 is another")
    func ipv6CountsByItsSlash64() async throws {
        var feed = FeedSettings()
        feed.streamsPerAddress = 2
        let proxy = try TrustedProxies.Range(parsing: "127.0.0.1")
        try await withServerClient(auth: PersonSignIn.auth(), feed: feed, trustedProxies: TrustedProxies([proxy])) { client in
            let tokens = [
                try await PersonSignIn.tokens("sock0", on: client).access,
                try await PersonSignIn.tokens("sock1", on: client).access,
            ]
            var open: [EventStreamTap] = []
            defer { open.forEach { $0.close() } }
            for (token, address) in zip(tokens, ["2001:db8:1:2::1", "2001:db8:1:2:ffff:1:2:3"]) {
                open.append(try await FeedStreams.stream(client, token: token, forwardedFor: address))
                #expect(open.last?.status == 200)
            }
            open.append(try await FeedStreams.stream(client, token: tokens[1], forwardedFor: "2001:db8:1:2:abcd::9"))
            #expect(open.last?.status == 429, "a third address of the same /64")
            open.append(try await FeedStreams.stream(client, token: tokens[1], forwardedFor: "2001:db8:1:3::1"))
            #expect(open.last?.status == 200, "the next /64 is another address")
        }
    }
}
