import Foundation
import MarqueeTestSupport
@testable import MovieServer
import Testing

/// The live feed's defaults are what OperatingTheServer's table and TheLiveFeed say (a day of
/// events, 768 streams), and what a server built without settings uses.
@Suite("The live feed's documented defaults")
struct FeedDefaultsTests {
    static let docs = repositoryRoot.appendingPathComponent("Sources/MovieServer/MovieServer.docc")

    /// The default column of `option`'s row in OperatingTheServer's table, as a number.
    static func documentedDefault(_ option: String) throws -> Int? {
        let table = try String(contentsOf: docs.appendingPathComponent("OperatingTheServer.md"), encoding: .utf8)
        let row = table.split(separator: "\n").first { $0.hasPrefix("| `\(option)` |") }
        let cell = row?.split(separator: "|").dropFirst().first
        return cell.flatMap { $0.firstMatch(of: /\d+/).map { Int($0.output)! } }
    }

    @Test("--event-retention, --max-event-streams and the per-address and per-account caps default to the table's figures, and FeedSettings() to the same")
    func defaultsMatchTheDocs() throws {
        #expect(try Self.documentedDefault("--event-retention") == ServerSetting.eventRetention.defaultValue)
        #expect(try Self.documentedDefault("--max-event-streams") == ServerSetting.maximumEventStreams.defaultValue)
        #expect(try Self.documentedDefault("--event-streams-per-address") == ServerSetting.eventStreamsPerAddress.defaultValue)
        #expect(try Self.documentedDefault("--event-streams-per-account") == ServerSetting.eventStreamsPerAccount.defaultValue)
        #expect(try Self.documentedDefault("--event-streams-per-application") == ServerSetting.eventStreamsPerApplication.defaultValue)
        let settings = FeedSettings()
        #expect(settings.streamsPerAddress == 8 && settings.streamsPerPerson == 4 && settings.streamsPerApplication == 16 && settings.reservedStreams == 192)
        #expect(settings.retention == .seconds(ServerSetting.eventRetention.defaultValue))
        #expect(settings.maximumStreams == ServerSetting.maximumEventStreams.defaultValue)
        let article = try String(contentsOf: Self.docs.appendingPathComponent("TheLiveFeed.md"), encoding: .utf8)
        #expect(ServerSetting.eventRetention.defaultValue == 86_400 && article.contains("keeps an event for a day"), "the article says a day")
    }
}
