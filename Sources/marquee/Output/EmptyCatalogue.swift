import Foundation
import MovieContract
import MovieStore
import Movies

/// When the network's answer holds no movies, finds out whether the server holds none at all, and
/// then tells the person so, with how the server's operator fills it: an empty list from a new
/// server is otherwise indistinguishable from a year or a search that matched nothing.
enum EmptyCatalogue {
    static let advice = "this server's catalogue is empty: whoever runs it loads movies with 'marquee catalog import --bundled --database URL' (the ten bundled movies) or 'marquee catalog import FILE --database URL'"

    /// Whether the server, asked now, lists no movie at all. `false` when it cannot be asked.
    static func isEmpty(asking service: AppMovieService) async -> Bool {
        let firstMovie = MovieSearchRequest(text: nil, limit: 1)
        guard let answer = try? await service.search(firstMovie, all: false, policy: .networkOnly) else { return false }
        return answer.source == .network && answer.networkError == nil && answer.value.movies.isEmpty
    }

    /// Writes ``advice`` on standard error when `answer` came from the network empty and the
    /// server's catalogue is empty.
    static func explain<Value>(_ answer: AppSnapshot<Value>, isEmpty: Bool, service: AppMovieService) async {
        guard isEmpty, answer.source == .network, answer.networkError == nil, await Self.isEmpty(asking: service) else { return }
        FileHandle.standardError.write(Data("marquee: note: \(advice)\n".utf8))
    }
}
