// Writes large list snapshots into a movie store forever, one transaction each, and prints
// "committed <generation>" after each commit. The crash-safety tests kill it with SIGKILL at
// random moments and check what it left behind.
//
// With a budget (`BUDGET_BYTES`), each generation is a list of new movies under one of 40 years,
// so the store grows past the budget and every write is followed by eviction; a pending
// watchlist change for movie 1 is recorded first, and must outlive every kill.
import Foundation
import Movies
import MovieStore

let arguments = CommandLine.arguments
guard (3...4).contains(arguments.count), let batchSize = Int(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: marquee-store-crash-writer STORE BATCH_SIZE [BUDGET_BYTES]\n".utf8))
    exit(64)
}
let budget = arguments.count == 4 ? Int64(arguments[3]).map(StoreBudget.init(bytes:)) : nil
let store = try MovieStore(url: URL(fileURLWithPath: arguments[1]), budget: budget ?? .unlimited)

func movie(_ id: Int, index: Int, generation: Int) -> Movie {
    Movie(
        id: id, name: "movie \(index) generation \(generation)", year: 2016,
        releaseDate: Date(timeIntervalSince1970: 1_451_606_400 + Double(index % 365) * 86_400),
        grossing: batchSize - index, rating: Double(index % 100),
        cast: (0..<3).map { MovieActor(name: "actor \((index + $0) % 500) of generation \(generation % 7)") }
    )
}

if budget != nil {
    if try await store.pendingWatchlistChangeCount(api: "test") == 0 {
        try await store.saveMovies([movie(1, index: 0, generation: 0)], api: "test", fetchedAt: Date())
        _ = try await store.recordWatchlistChange(movieID: 1, action: .add, note: "kept", api: "test")
    }
    var generation = Int(Date().timeIntervalSince1970 * 1000) % 1_000_000
    while true {
        generation += 1
        let query = ListQuery(.topGrossing, year: 1900 + generation % 40)
        let movies = (0..<batchSize).map { movie(10 + generation * batchSize + $0, index: $0, generation: generation) }
        try await store.saveList(movies, for: query, api: "test", fetchedAt: Date())
        FileHandle.standardOutput.write(Data("committed \(generation)\n".utf8))
    }
}

let queries: [(ListQuery, Int)] = [(ListQuery(.topGrossing, year: 2016), 0), (ListQuery(.topRated, year: 2016), 1_000_000)]
var generation = 0
for (query, _) in queries {
    if let first = try await store.list(query, api: "test")?.value.first, let stored = Int(first.name.split(separator: " ").last ?? "") {
        generation = max(generation, stored)
    }
}
while true {
    generation += 1
    for (query, firstID) in queries {
        let movies = (0..<batchSize).map { movie(firstID + $0, index: $0, generation: generation) }
        try await store.saveList(movies, for: query, api: "test", fetchedAt: Date())
    }
    FileHandle.standardOutput.write(Data("committed \(generation)\n".utf8))
}
