import ArgumentParser
import Foundation
import Logging
import MovieContract
import MovieStore
import Movies
import NIOConcurrencyHelpers
import Networking
import TextFormatting

/// Runs a search or listing through the cached service and prints the page, where it came
/// from, and how to get the next one.
enum SearchQuery {
    static func run(_ request: MovieSearchRequest, all: Bool, title: String, _ client: ClientOptions, _ output: OutputOptions) async throws {
        let note = NIOLockedValueBox<SuggestionNote?>(nil)
        try await SnapshotQuery.run(
            client,
            output,
            subject: "movies",
            ask: { service, policy, each throws(CacheFailure<NetworkError>) in
                let answer = try await service.search(request, all: all, policy: policy)
                each(answer)
                let found = await SuggestionNote.ask(for: request, typed: request.text ?? "", after: answer, service: service, policy: policy)
                note.withLockedValue { $0 = found }
                return answer
            },
            traceLine: { "Found \($0.movies.count) movies" },
            show: { [embedded = (try? client.api.selection.identity) == .embedded] snapshot, provenance in
                let suggestion = note.withLockedValue { $0 }
                try MovieOutput(json: output.json).printSearch(snapshot, title: title, provenance: provenance, suggestion: suggestion?.json)
                if !output.json, let suggestion {
                    FileHandle.standardError.write(Data("marquee: \(suggestion.line)\n".utf8))
                }
                if !output.json, let advice = MorePages.advice(for: snapshot.value, embedded: embedded) {
                    FileHandle.standardError.write(Data("marquee: \(advice)\n".utf8))
                }
            },
            isEmpty: { $0.movies.isEmpty && request.cursor == nil }
        )
    }
}
