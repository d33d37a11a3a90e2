import ArgumentParser
import Foundation
import Logging
import MovieServer

/// `marquee serve`: run the movie API until interrupted.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the movie API over HTTP until interrupted (Ctrl-C)."
    )

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on, 0 for any free port.")
    var port = 8080

    @Option(help: ArgumentHelp("A JSON file of movies to serve instead of the bundled catalog.", valueName: "file"))
    var catalog: String?

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("the port must be from 0 to 65535, not \(port)") }
    }

    func run() async throws {
        let movies = try catalog.map { try Catalog.load(from: URL(fileURLWithPath: $0)) } ?? Catalog.reference()
        var logger = Logger(label: "marquee.server")
        logger.logLevel = .info
        let server = MovieServer(configuration: .init(host: host, port: port, catalog: movies, logger: logger))
        do {
            try await server.run()
        } catch {
            throw CLIError.cannotServe(host: host, port: port, reason: ErrorReporter.describe(error))
        }
    }
}
