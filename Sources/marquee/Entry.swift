import ArgumentParser
import Foundation
import Logging

/// The process entry: parses the command line, runs the command, and turns any failure into
/// one line on standard error and a non-zero exit status.
@main
enum Entry {
    static func main() async {
        LoggingSystem.bootstrapForMarquee()
        let command: any ParsableCommand
        do {
            command = try MarqueeCommand.parseAsRoot()
        } catch {
            ErrorReporter.exitForParsing(error)
        }
        do {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                var syncCommand = command
                try syncCommand.run()
            }
        } catch {
            ErrorReporter.exitForRunning(error)
        }
    }
}
