import ArgumentParser
import Foundation
import Logging
import MovieStore
import Movies
import Networking

/// The service the app's commands use: the movie API's answers, kept in the store.
typealias AppMovieService = any OfflineMovieService<NetworkError>

/// One answer of the app's movie service.
typealias AppSnapshot<Value: Sendable> = MovieSnapshot<Value, NetworkError>

/// Runs one call of the cached movie service by the options' policy, traces its answers when
/// asked, and prints the last one with where it came from.
enum SnapshotQuery {
    /// Asks the service by a policy, showing each snapshot to the callback as it comes.
    typealias Ask<Value: Sendable> = (
        AppMovieService, CachePolicy, (AppSnapshot<Value>) -> Void
    ) async throws(CacheFailure<NetworkError>) -> AppSnapshot<Value>

    static func run<Value>(
        _ options: ClientOptions,
        _ output: OutputOptions,
        subject: String,
        ask: Ask<Value>,
        traceLine: @escaping (Value) -> String,
        show: (AppSnapshot<Value>, Provenance.Line) throws -> Void,
        notFoundHint: (CacheFailure<NetworkError>) -> String? = { _ in nil },
        isEmpty: (Value) -> Bool = { _ in false }
    ) async throws {
        try await CompositionRoot.withMovieService(options) { service in
            var presenter = SnapshotPresenter(trace: output.trace, traceToStandardError: output.json)
            let answer: AppSnapshot<Value>
            do throws(CacheFailure<NetworkError>) {
                answer = try await ask(service, options.cachePolicy) { presenter.traced($0, describe: traceLine) }
            } catch {
                presenter.traced(error)
                throw CLIError.failed(ErrorReporter.withHint(ErrorReporter.describe(error), notFoundHint(error)))
            }
            presenter.tracedEnd(of: answer)
            if let storeError = answer.storeError {
                Logger(label: "marquee").warning("the answer could not be stored: \(ErrorReporter.describe(storeError))")
            }
            let provenance = Provenance.line(for: answer, subject: subject)
            try show(answer, provenance)
            await EmptyCatalogue.explain(answer, isEmpty: isEmpty(answer.value), service: service)
            if answer.isIncomplete, let error = answer.networkError {
                throw CLIError.failed("stopped before the end: \(ErrorReporter.describe(error))")
            }
            guard answer.isStale else { return }
            if !output.json {
                Logger(label: "marquee").warning("the answer shown is stored, not fresh: \(provenance.text)")
            }
            if output.failOnStale { throw ExitCode(ExitStatus.stale) }
        }
    }

    /// Runs a list command: ask the service for `list` of `year`, trace "Found N movies",
    /// print it under "`title` `year`".
    static func runList(_ options: ClientOptions, _ output: OutputOptions, _ list: MovieList, year: Int, title: String) async throws {
        try await run(
            options,
            output,
            subject: "movies of \(year)",
            ask: { service, policy, each throws(CacheFailure<NetworkError>) in
                try await service.movies(list, year: year, policy: policy, each: each)
            },
            traceLine: { "Found \($0.count) movies" },
            show: { try MovieOutput(json: output.json).printList($0, title: "\(title) \(year)", provenance: $1) },
            notFoundHint: { failure in
                // The API answers every list, even an empty one: a 404 means the path is wrong.
                guard case .network(.status(code: 404, _)) = failure else { return nil }
                return "is the base URL right? The movie API usually ends in /api/"
            },
            isEmpty: \.isEmpty
        )
    }
}
