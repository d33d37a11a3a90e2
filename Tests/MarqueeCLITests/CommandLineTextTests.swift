import Foundation
@testable import marquee
import MovieServer
import Movies
import Testing

/// The command line's own words: the config file's comments, the help an error points at, and
/// account errors written for the page read as a `marquee:` line's clause.
@Suite("The command line's text")
struct CommandLineTextTests {
    @Test("a '#' after a value and a space begins a comment; a '#' inside a value stays")
    func configComments() throws {
        let file = try ConfigFile.parse("""
            # the home server
            env = http://127.0.0.1:8080/api/ # at home
            account = alice\t# the default
            store-budget = 50MB#not a comment
            """, path: "config")
        #expect(file.env == "http://127.0.0.1:8080/api/")
        #expect(file.account == "alice")
        #expect(file.storeBudget == "50MB#not a comment")
        #expect(throws: ConfigFileError.self) { try ConfigFile.parse("env = # nothing but a comment", path: "config") }
    }

    @Test("an error points at the help of the command its words name, as far as they name one", arguments: [
        ([], "marquee --help"), (["top-grosing"], "marquee --help"), (["search", "x", "--limit", "0"], "marquee search --help"),
        (["watch", "add", "-3"], "marquee watch add --help"), (["watch", "--note"], "marquee watch --help"),
        (["catalog", "import", "--bundled", "x"], "marquee catalog import --help"),
    ])
    func helpCommand(words: [String], help: String) {
        #expect(ErrorReporter.helpCommand(for: words) == help)
    }

    @Test("an account error reads as a clause: its first letter lowered, its full stop dropped")
    func accountErrorClause() {
        #expect(ErrorReporter.describe(AccountError.nameTaken("alice")) == "the account name 'alice' is taken")
        #expect(ErrorReporter.describe(AccountError.unknownAccount("bob")) == "there is no account 'bob'")
    }

    @Test("a table's column is as wide as its widest cell, cut only to what a terminal leaves, and never below its least")
    func columnWidth() {
        let titles = ["Deadpool (2016)", String(repeating: "Long Title ", count: 8)]
        #expect(OutputColumns.width(of: titles, header: "Title", beside: 20, columns: nil) == 88, "piped: no cut")
        #expect(OutputColumns.width(of: titles, header: "Title", beside: 20, columns: 200) == 88)
        #expect(OutputColumns.width(of: titles, header: "Title", beside: 20, columns: 80) == 60)
        #expect(OutputColumns.width(of: titles, header: "Title", beside: 20, columns: 30) == 20)
        #expect(OutputColumns.width(of: ["Up (2009)"], header: "Title", beside: 20, columns: 80) == 9)
    }

    @Test("--follow prints a break once, then nothing while it tries again, until it is live; after the start's warning, nothing until live")
    func followStatusLines() {
        let refused = LiveStatus.reconnecting(after: .seconds(1), reason: "cannot connect")
        var lines = FollowStatusLines(waiting: false)
        let printed = [LiveStatus.connecting, .live, refused, .connecting, .reconnecting(after: .seconds(4), reason: "cannot connect"), .connecting, .live, refused]
            .map { lines.line(for: $0) }
        #expect(printed == ["connecting", "live", "reconnecting in 1 s: cannot connect", nil, nil, nil, "live", "reconnecting in 1 s: cannot connect"])
        var afterWarning = FollowStatusLines(waiting: true)
        #expect([LiveStatus.connecting, refused, .connecting, .live].map { afterWarning.line(for: $0) } == [nil, nil, nil, "live"])
    }
}
