import Movies
@testable import MovieStore
import Synchronization
import Testing

/// A walk stores each page while it reads the next: in order, one page at a time, with nothing
/// left unstored when it ends.
@Suite("A walk's pages stored beside its reads")
struct PageSavingTests {
    /// Saves that each wait for their page's gate, and what happened, in order.
    actor Saves {
        private(set) var events: [String] = []
        private var opened: Set<Int> = []
        private var waiting: [Int: CheckedContinuation<Void, Never>] = [:]
        private var watchers: [(String, CheckedContinuation<Void, Never>)] = []

        func save(page: Int, failure: StoreError?) async -> StoreError? {
            record("start \(page)")
            if !opened.contains(page) {
                await withCheckedContinuation { waiting[page] = $0 }
            }
            record("end \(page)")
            return failure
        }

        func open(_ page: Int) {
            opened.insert(page)
            waiting.removeValue(forKey: page)?.resume()
        }

        /// Returns once `event` has happened.
        func happened(_ event: String) async {
            if events.contains(event) { return }
            await withCheckedContinuation { watchers.append((event, $0)) }
        }

        private func record(_ event: String) {
            events.append(event)
            for (index, watcher) in watchers.enumerated().reversed() where watcher.0 == event {
                watchers.remove(at: index).1.resume()
            }
        }
    }

    static func page(_ number: Int) -> [Movie] {
        [Fixtures.movie(number)]
    }

    static func saving(_ saves: Saves, failures: [Int: StoreError] = [:]) -> PageSaving {
        PageSaving { movies in await saves.save(page: movies[0].id, failure: failures[movies[0].id]) }
    }

    @Test("starting a page does not wait for its save; the next page's save starts only once it has ended; finishing waits for the last", .timeLimit(.minutes(1)))
    func overlapInOrder() async throws {
        let saves = Saves()
        var saving = Self.saving(saves)
        await saving.start(Self.page(1))
        await saves.happened("start 1")
        #expect(await saves.events == ["start 1"], "the walk goes on while page 1 is stored")

        let secondStarted = Mutex(false)
        let second = Task { [saving] in
            var copy = saving
            await copy.start(Self.page(2))
            secondStarted.withLock { $0 = true }
            return copy
        }
        // A window for a save started too early to show itself; the right order never does.
        try await Task.sleep(for: .milliseconds(200))
        #expect(await saves.events == ["start 1"], "page 2's save waits for page 1's")
        #expect(!secondStarted.withLock { $0 }, "starting page 2 waits while page 1 is stored")
        await saves.open(1)
        await saves.open(2)
        saving = await second.value
        #expect(await saving.finish() == nil)
        #expect(await saves.events == ["start 1", "end 1", "start 2", "end 2"])
    }

    @Test("the walk's last failure is what finishing gives; a later page stored well does not clear it", arguments: [
        ([1: StoreError.diskFull(path: "a")], StoreError?.some(.diskFull(path: "a"))),
        ([1: .diskFull(path: "a"), 3: .failed(path: "a", reason: "three")], .failed(path: "a", reason: "three")),
        ([:], nil),
    ])
    func lastFailure(failures: [Int: StoreError], expected: StoreError?) async throws {
        let saves = Saves()
        for page in 1...3 { await saves.open(page) }
        var saving = Self.saving(saves, failures: failures)
        for page in 1...3 { await saving.start(Self.page(page)) }
        #expect(await saving.finish() == expected)
        #expect(await saves.events == ["start 1", "end 1", "start 2", "end 2", "start 3", "end 3"])
    }
}
