import Foundation
import Logging
import MovieStore
import Movies

/// Runs one call of the cached movie service by the options' policy, traces its answers when
/// asked, and prints the last one with where it came from.
enum SnapshotQuery {
    static func run<Value>(
        _ options: ClientOptions,
        ask: @escaping (any OfflineMovieService, CachePolicy) -> AsyncThrowingStream<MovieSnapshot<Value>, any Error>,
        traceLine: (Value) -> String,
        print: (Value, Provenance.Line) throws -> Void
    ) async throws {
        try await CompositionRoot.withMovieService(options) { service in
            let presenter = SnapshotPresenter(trace: options.trace, traceToStandardError: options.json)
            let (last, error) = await presenter.follow(ask(service, options.cachePolicy), describe: traceLine)
            guard let last, last.fetchedAt != nil || error == nil else {
                throw error ?? StoreError.notStored("this query")
            }
            if let storeError = last.storeError {
                Logger(label: "marquee").warning("the answer could not be stored: \(storeError)")
            }
            try print(last.value, Provenance.line(for: last, networkError: error))
        }
    }
}
