import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A deliberately misbehaving HTTP server on loopback, written on raw NIO so that every fault is
/// exactly what it says. The fault is the first path segment: `/hang/api/movies/…`.
///
/// A second listener on 127.0.0.2, another host, answers redirects and records the headers it
/// receives.
public final class FaultServer: Sendable {
    /// What the server does with a request.
    public enum Fault: String, Sendable, CaseIterable {
        /// Accepts and reads the request, never answers.
        case hang
        /// Sends part of the body, then resets the connection.
        case reset
        /// Sends the headers, then one byte a second.
        case drip
        case status500
        case status503
        /// 503 with `Retry-After: 1`.
        case status503RetryAfterSeconds
        /// 503 with `Retry-After` as an HTTP date one second ahead.
        case status503RetryAfterDate
        /// 200 with JSON cut in the middle.
        case malformedJSON
        /// 200 with JSON of the wrong types.
        case wrongTypes
        /// Announces 2,000 bytes, sends 100, closes.
        case truncated
        /// 200 with a 50 MiB body.
        case huge
        /// 200 with 20 KB of gzip that inflates to 20 MiB.
        case gzipBomb
        /// 302 to the same path on the other host.
        case redirectToOtherHost
        /// 200 with a valid list of one movie.
        case ok
        /// 302 to a URL whose port is out of range.
        case redirectToInvalidPort
        /// Movie paths: 401 with a Bearer challenge. The token endpoint: 307 to the other host.
        case challengeThenTokenRedirect307
        /// Movie paths: 401 with a Bearer challenge. The token endpoint: 302 to the other host.
        case challengeThenTokenRedirect302
        /// Movie paths: 401 with a Bearer challenge. The token endpoint: `expires_in` of Int.max.
        case challengeThenHugeExpiry
        /// 200 with a list whose names carry terminal escape sequences, CR/LF and C1 controls.
        case escapeCodes
        /// 404 whose `error_description` carries terminal escape sequences.
        case escapeCodesInError
    }

    /// A name that would clear the screen, set the window title and forge a line on a terminal.
    public static let hostileName = "Evil\u{1B}[2J\u{1B}]0;pwned\u{07}\r\nmarquee: forged line\u{9B}31m"

    public let port: Int
    public let otherHostPort: Int
    private let channels: [any Channel]
    private let recorded: NIOLockedValueBox<[[String: String]]>

    private init(port: Int, otherHostPort: Int, channels: [any Channel], recorded: NIOLockedValueBox<[[String: String]]>) {
        self.port = port
        self.otherHostPort = otherHostPort
        self.channels = channels
        self.recorded = recorded
    }

    public static func start() async throws -> FaultServer {
        let recorded = NIOLockedValueBox<[[String: String]]>([])
        let other = try await bind(host: "127.0.0.2", recorded: recorded, otherHostPort: 0)
        let otherPort = other.localAddress?.port ?? 0
        let main = try await bind(host: "127.0.0.1", recorded: recorded, otherHostPort: otherPort)
        return FaultServer(port: main.localAddress?.port ?? 0, otherHostPort: otherPort, channels: [main, other], recorded: recorded)
    }

    /// The API root that plays `fault`: `http://127.0.0.1:port/<fault>/api/`.
    public func baseURL(for fault: Fault) -> URL {
        URL(string: "http://127.0.0.1:\(port)/\(fault.rawValue)/api/")!
    }

    /// The headers of every request the other host received, names lowercased.
    public var otherHostRequests: [[String: String]] { recorded.withLockedValue { $0.filter { $0[Self.hostKey] == "other" } } }

    /// The headers of every request the main host received, names lowercased.
    public var mainHostRequests: [[String: String]] { recorded.withLockedValue { $0.filter { $0[Self.hostKey] == "main" } } }

    /// The pseudo-header that says which host recorded a request.
    static let hostKey = ":host"

    public func stop() async {
        for channel in channels { try? await channel.close() }
    }

    private static func bind(host: String, recorded: NIOLockedValueBox<[[String: String]]>, otherHostPort: Int) async throws -> any Channel {
        try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        FaultHandler(isOtherHost: host != "127.0.0.1", otherHostPort: otherHostPort, recorded: recorded)
                    )
                }
            }
            .bind(host: host, port: 0)
            .get()
    }
}

/// Reads one request head, then plays the fault its path names.
private final class FaultHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    static let validList = #"[{"name":"Heat","id":77,"year":1995,"releaseDate":"1995-12-15","grossing":187436818,"rating":8.3,"cast":[{"name":"Al Pacino"}]}]"#

    private let isOtherHost: Bool
    private let otherHostPort: Int
    private let recorded: NIOLockedValueBox<[[String: String]]>
    private var head = ""
    private var answered = false
    private var drip: RepeatedTask?

    init(isOtherHost: Bool, otherHostPort: Int, recorded: NIOLockedValueBox<[[String: String]]>) {
        self.isOtherHost = isOtherHost
        self.otherHostPort = otherHostPort
        self.recorded = recorded
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !answered else { return }
        head += String(buffer: unwrapInboundIn(data))
        guard let end = head.range(of: "\r\n\r\n") else { return }
        answered = true
        let lines = head[..<end.lowerBound].components(separatedBy: "\r\n")
        let path = lines.first?.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
        var headers = Dictionary(lines.dropFirst().compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }, uniquingKeysWith: { first, _ in first })
        headers[FaultServer.hostKey] = isOtherHost ? "other" : "main"
        recorded.withLockedValue { $0.append(headers) }
        if isOtherHost {
            respond(context, status: "200 OK", body: Self.validList)
            return
        }
        let faultName = path.split(separator: "/").first.map(String.init) ?? ""
        play(FaultServer.Fault(rawValue: faultName) ?? .ok, path: path, context: context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        drip?.cancel()
        context.fireChannelInactive()
    }

    private func play(_ fault: FaultServer.Fault, path: String, context: ChannelHandlerContext) {
        switch fault {
        case .hang:
            break
        case .reset:
            write(context, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n" + String(repeating: " ", count: 1000))
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            let lingerOff = (context.channel as? any SocketOptionProvider)?.setSoLinger(linger(l_onoff: 1, l_linger: 0))
                ?? context.eventLoop.makeSucceededVoidFuture()
            lingerOff.whenComplete { _ in bound.value.close(promise: nil) }
        case .drip:
            write(context, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n")
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            drip = context.eventLoop.scheduleRepeatedTask(initialDelay: .seconds(1), delay: .seconds(1)) { _ in
                bound.value.writeAndFlush(NIOAny(ByteBuffer(string: " ")), promise: nil)
            }
        case .status500:
            respond(context, status: "500 Internal Server Error", body: #"{"error":"server_error","error_description":"boom"}"#)
        case .status503:
            respond(context, status: "503 Service Unavailable", body: #"{"error":"unavailable","error_description":"try later"}"#)
        case .status503RetryAfterSeconds:
            respond(context, status: "503 Service Unavailable", headers: ["Retry-After: 1"], body: "{}")
        case .status503RetryAfterDate:
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
            respond(context, status: "503 Service Unavailable", headers: ["Retry-After: \(formatter.string(from: Date().addingTimeInterval(1)))"], body: "{}")
        case .malformedJSON:
            respond(context, status: "200 OK", body: #"[{"name":"Heat","id":77,"ye"#)
        case .wrongTypes:
            respond(context, status: "200 OK", body: #"[{"name":77,"id":"Heat","year":1995,"releaseDate":"1995-12-15","grossing":1,"rating":8,"cast":[]}]"#)
        case .truncated:
            write(context, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2000\r\n\r\n" + String(Self.validList.prefix(100)))
            context.close(promise: nil)
        case .huge:
            let size = 50 * 1024 * 1024, chunk = ByteBuffer(repeating: UInt8(ascii: " "), count: 1024 * 1024)
            write(context, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(size)\r\n\r\n")
            for _ in 0..<50 { context.write(NIOAny(chunk), promise: nil) }
            context.flush()
        case .gzipBomb:
            let bomb = (Bundle.module.url(forResource: "gzip-bomb-20MiB", withExtension: "gz", subdirectory: "Fixtures"))
                .flatMap { try? Data(contentsOf: $0) } ?? Data()
            write(context, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: \(bomb.count)\r\nConnection: close\r\n\r\n")
            context.writeAndFlush(NIOAny(ByteBuffer(bytes: bomb)), promise: nil)
        case .redirectToOtherHost:
            let rest = path.split(separator: "/").dropFirst().joined(separator: "/")
            respond(context, status: "302 Found", headers: ["Location: http://127.0.0.2:\(otherHostPort)/\(rest)"], body: "")
        case .ok:
            respond(context, status: "200 OK", body: Self.validList)
        case .redirectToInvalidPort:
            respond(context, status: "302 Found", headers: ["Location: http://127.0.0.1:99999/x"], body: "")
        case .challengeThenTokenRedirect307, .challengeThenTokenRedirect302, .challengeThenHugeExpiry:
            guard path.hasSuffix("/auth/token") else {
                respond(context, status: "401 Unauthorized", headers: [#"WWW-Authenticate: Bearer realm="faults""#], body: #"{"error":"invalid_token"}"#)
                return
            }
            switch fault {
            case .challengeThenHugeExpiry:
                respond(context, status: "200 OK", body: #"{"access_token":"t","token_type":"Bearer","expires_in":9223372036854775807}"#)
            default:
                let status = fault == .challengeThenTokenRedirect307 ? "307 Temporary Redirect" : "302 Found"
                respond(context, status: status, headers: ["Location: http://127.0.0.2:\(otherHostPort)/api/auth/token"], body: "")
            }
        case .escapeCodes:
            let name = #"Evil\u001b[2J\u001b]0;pwned\u0007\r\nmarquee: forged line\u009b31m"#
            respond(context, status: "200 OK", body: #"[{"name":"\#(name)","id":77,"year":1995,"releaseDate":"1995-12-15","grossing":1,"rating":8,"cast":[{"name":"\#(name)"}]}]"#)
        case .escapeCodesInError:
            respond(context, status: "404 Not Found", body: #"{"error":"not_found","error_description":"gone\u001b]0;pwned\u0007\r\nmarquee: forged"}"#)
        }
    }

    /// A whole answer, then the connection closes: one request per connection keeps every fault
    /// exactly where the test put it.
    private func respond(_ context: ChannelHandlerContext, status: String, headers: [String] = [], body: String) {
        let fields = ["HTTP/1.1 \(status)", "Content-Type: application/json", "Content-Length: \(body.utf8.count)", "Connection: close"] + headers
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(NIOAny(ByteBuffer(string: fields.joined(separator: "\r\n") + "\r\n\r\n" + body))).whenComplete { _ in
            bound.value.close(promise: nil)
        }
    }

    private func write(_ context: ChannelHandlerContext, _ text: String) {
        context.writeAndFlush(NIOAny(ByteBuffer(string: text)), promise: nil)
    }
}
