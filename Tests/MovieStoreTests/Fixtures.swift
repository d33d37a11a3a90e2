import Foundation
import MarqueeTestSupport
import MovieContract
import Movies
import MovieStore
import NIOConcurrencyHelpers

enum Fixtures {
    static func movie(_ id: Int, year: Int = 2016, name: String? = nil, cast: [String] = ["Shared Actor"]) -> Movie {
        Movie(
            id: id, name: name ?? "Movie \(id)", year: year,
            releaseDate: Date(timeIntervalSince1970: 1_451_606_400 + Double(id) * 86_400),
            grossing: 1_000 * id, rating: Double(id % 10) + 0.5, cast: cast.map(MovieActor.init)
        )
    }

    static let ten = (1...10).map { movie($0) }

    /// The API the store tests keep their data under.
    static let api = "http://api.test/api/"
}

/// A fresh store in a temporary folder.
func makeStore() throws -> MovieStore {
    try MovieStore(url: TestFolders.temporary.appendingPathComponent("store-\(UUID().uuidString)/movies.sqlite"))
}

/// A base service whose answers a test scripts, and which counts its calls.
final class ScriptedMovieService: MovieService {
    enum Behaviour: Sendable {
        case answer([Movie])
        case fail(TestFailure)
        /// Waits until the test opens the gate, then answers.
        case slow([Movie], Gate)
    }

    private let behaviour: NIOLockedValueBox<Behaviour>
    private let calls = NIOLockedValueBox(0)

    init(_ behaviour: Behaviour) {
        self.behaviour = NIOLockedValueBox(behaviour)
    }

    var callCount: Int { calls.withLockedValue { $0 } }

    func set(_ newBehaviour: Behaviour) { behaviour.withLockedValue { $0 = newBehaviour } }

    func movie(id: Int) async throws(TestFailure) -> Movie {
        let movies = try await answer()
        guard let movie = movies.first(where: { $0.id == id }) else { throw TestFailure.notFound }
        return movie
    }

    func movies(_ list: MovieList, year: Int) async throws(TestFailure) -> [Movie] { try await answer() }

    func search(_ request: MovieSearchRequest) async throws(TestFailure) -> MovieSearchPage {
        MovieSearchPage(movies: try await answer().filter { SearchText.matches(request.words, allWords: SearchText.Indexed(title: $0.name, cast: $0.cast.map(\.name)).allWords) }, next: nil)
    }

    /// Suggests nothing, or fails as the other calls do.
    func suggestion(for request: MovieSearchRequest) async throws(TestFailure) -> SearchSuggestion? {
        _ = try await answer()
        return nil
    }

    func isUnavailable(_ failure: TestFailure) -> Bool { failure != .refused }

    private func answer() async throws(TestFailure) -> [Movie] {
        calls.withLockedValue { $0 += 1 }
        switch behaviour.withLockedValue({ $0 }) {
        case let .answer(movies): return movies
        case let .fail(error): throw error
        case let .slow(movies, gate):
            await gate.wait()
            return movies
        }
    }
}

enum TestFailure: Error, Equatable, Sendable {
    case offline
    case notFound
    /// The server's answer to the request itself (a 4xx): a stored answer must not hide it.
    case refused
}

/// Holds waiters until opened.
final class Gate: Sendable {
    private let state = NIOLockedValueBox<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLockedValue { state -> Bool in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLockedValue { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        waiters.forEach { $0.resume() }
    }
}

/// What one call of a cached service showed: every snapshot it emitted, in order, and the error
/// it ended with, if any: its failure (the network's own error when the network failed), or the
/// network failure its answer carries that no emitted snapshot showed (`cacheThenNetwork` after
/// the stored answer).
struct CallRecord<Value: Sendable, NetworkFailure: Error> {
    var elements: [MovieSnapshot<Value, NetworkFailure>] = []
    var error: (any Error)?

    func collect() -> (elements: [MovieSnapshot<Value, NetworkFailure>], error: (any Error)?) { (elements, error) }

    static func of(
        _ call: ((MovieSnapshot<Value, NetworkFailure>) -> Void) async throws(CacheFailure<NetworkFailure>) -> MovieSnapshot<Value, NetworkFailure>
    ) async -> CallRecord {
        var record = CallRecord()
        do throws(CacheFailure<NetworkFailure>) {
            let answer = try await call { record.elements.append($0) }
            if let networkError = answer.networkError, record.elements.last?.networkError == nil { record.error = networkError }
        } catch {
            if case let .network(networkError) = error { record.error = networkError } else { record.error = error }
        }
        return record
    }
}

extension CachedMovieService {
    /// The record of one list call by `policy`.
    func snapshots(_ list: MovieList, year: Int, policy: CachePolicy) async -> CallRecord<[Movie], Base.Failure> {
        await CallRecord.of { each throws(Failure) in try await self.movies(list, year: year, policy: policy, each: each) }
    }

    /// The record of one movie call by `policy`.
    func snapshotsOfMovie(id: Int, policy: CachePolicy) async -> CallRecord<Movie, Base.Failure> {
        await CallRecord.of { each throws(Failure) in try await self.movie(id: id, policy: policy, each: each) }
    }
}
