import Foundation
import Logging
import MovieStore
import Movies

/// Runs one call of the cached movie service by the options' policy, traces its answers when
/// asked, and prints the last one with where it came from.
enum SnapshotQuery {
    static func run<Value>(
        _ options: ClientOptions,
        subject: String,
        ask: @escaping (any OfflineMovieService, CachePolicy) -> AsyncThrowingStream<MovieSnapshot<Value>, any Error>,
        traceLine: (Value) -> String,
        show: (MovieSnapshot<Value>, Provenance.Line) throws -> Void
    ) async throws {
        try await CompositionRoot.withMovieService(options) { service in
            let presenter = SnapshotPresenter(trace: options.trace, traceToStandardError: options.json)
            let answer = try await presenter.answer(of: ask(service, options.cachePolicy), describe: traceLine)
            if let storeError = answer.storeError {
                Logger(label: "marquee").warning("the answer could not be stored: \(ErrorReporter.describe(storeError))")
            }
            try show(answer, Provenance.line(for: answer, subject: subject))
        }
    }

    /// Runs a top-list command: `ask` the service for the list of `year`, trace "Found N movies",
    /// print it under "`title` `year`".
    static func runTopList(
        _ options: ClientOptions,
        year: Int,
        title: String,
        ask: @escaping (any OfflineMovieService, Int, CachePolicy) -> AsyncThrowingStream<MovieSnapshot<[Movie]>, any Error>
    ) async throws {
        try await run(
            options,
            subject: "movies of \(year)",
            ask: { service, policy in ask(service, year, policy) },
            traceLine: { "Found \($0.count) movies" },
            show: { try MovieOutput(json: options.json).printList($0, title: "\(title) \(year)", provenance: $1) }
        )
    }
}
