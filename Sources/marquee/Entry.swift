import ArgumentParser
import Foundation
import Logging
import NIOCore
import NIOPosix

/// The process entry: parses the command line, runs the command, and turns any failure into
/// one line on standard error and a non-zero exit status.
///
/// `marquee serve` first makes NIO's event loops Swift Concurrency's global executor, so that a
/// request's handler runs on the thread that reads and writes its connection instead of hopping to
/// the cooperative pool and back. That has to happen before the first task exists, so `main` is
/// synchronous: it installs the executor for `serve`, then runs the command line in a task and
/// hands the main thread to Dispatch.
@main
enum Entry {
    static func main() {
        if CommandLine.arguments.dropFirst().first == "serve" {
            NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
        }
        Task {
            await runCommandLine()
            exit(EXIT_SUCCESS)
        }
        dispatchMain()
    }

    private static func runCommandLine() async {
        ErrorReporter.exitForUnknownCommand()
        let command: any ParsableCommand
        do {
            command = try MarqueeCommand.parseAsRoot()
        } catch {
            ErrorReporter.exitForParsing(error)
        }
        let client = (command as? any ParsableCommandWithClient)?.client
        LoggingSystem.bootstrapForMarquee(console: client?.consoleSettings ?? ConsoleSettings())
        do {
            if var asyncCommand = command as? any AsyncParsableCommand {
                if asyncCommand is ServeCommand {
                    try await asyncCommand.run()
                } else {
                    try await TracedCommand.run { try await asyncCommand.run() }
                }
            } else {
                var syncCommand = command
                try syncCommand.run()
            }
        } catch {
            ErrorReporter.exitForRunning(error)
        }
    }
}
