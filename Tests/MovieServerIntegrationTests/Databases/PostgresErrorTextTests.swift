import MovieServerPostgres
import PostgresNIO
import Testing

/// A PostgreSQL failure without the server's own message is said in words, never by the name of
/// PostgresNIO's code (an import once ended with "…: serverClosedConnection; nothing was committed").
@Suite("PostgreSQL failures in words")
struct PostgresErrorTextTests {
    @Test("a lost connection, a closed pool, a failed sign-in: words a person reads, not the code's name", arguments: [
        PSQLError.Code.serverClosedConnection, .clientClosedConnection, .connectionError, .uncleanShutdown, .poolClosed,
        .queryCancelled, .sslUnsupported, .saslError, .messageDecodingFailure,
    ])
    func inWords(code: PSQLError.Code) {
        let text = PostgresErrorText.words(for: code)
        #expect(!text.contains("\(code)"), "\(text)")
        #expect(text.contains(" "))
    }

    @Test("the server closing the connection says so")
    func serverClosed() {
        #expect(PostgresErrorText.words(for: .serverClosedConnection) == "the server closed the connection")
    }
}
