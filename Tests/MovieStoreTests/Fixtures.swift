import Foundation
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
    try MovieStore(url: FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)/movies.sqlite"))
}

/// A base service whose answers a test scripts, and which counts its calls.
final class ScriptedMovieService: MovieService {
    enum Behaviour: Sendable {
        case answer([Movie])
        case fail(any Error)
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

    func movie(id: Int) async throws -> Movie {
        let movies = try await answer()
        guard let movie = movies.first(where: { $0.id == id }) else { throw TestFailure.notFound }
        return movie
    }

    func topGrossingMovies(year: Int) async throws -> [Movie] { try await answer() }

    func topRatedMovies(year: Int) async throws -> [Movie] { try await answer() }

    private func answer() async throws -> [Movie] {
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

enum TestFailure: Error, Equatable {
    case offline
    case notFound
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

extension AsyncThrowingStream {
    /// Every element until the stream ends, and the error it ended with, if any.
    func collect() async -> (elements: [Element], error: (any Error)?) {
        var elements: [Element] = []
        do {
            for try await element in self { elements.append(element) }
            return (elements, nil)
        } catch {
            return (elements, error)
        }
    }
}

extension AsyncThrowingStream {
    /// The answer the call ends with, as ``MovieSnapshot/last(of:)`` gives it.
    func answer<Value>() async throws -> MovieSnapshot<Value> where Element == MovieSnapshot<Value>, Failure == any Error {
        try await MovieSnapshot.last(of: self)
    }
}
