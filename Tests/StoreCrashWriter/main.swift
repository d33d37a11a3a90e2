// Writes large list snapshots into a movie store forever, one transaction each, and prints
// "committed <generation>" after each commit. The crash-safety tests kill it with SIGKILL at
// random moments and check what it left behind.
import Foundation
import Movies
import MovieStore

let arguments = CommandLine.arguments
guard arguments.count == 3, let batchSize = Int(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: marquee-store-crash-writer STORE BATCH_SIZE\n".utf8))
    exit(64)
}
let store = try MovieStore(url: URL(fileURLWithPath: arguments[1]))
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
        let movies = (0..<batchSize).map { index in
            Movie(
                id: firstID + index, name: "movie \(index) generation \(generation)", year: 2016,
                releaseDate: Date(timeIntervalSince1970: 1_451_606_400 + Double(index % 365) * 86_400),
                grossing: batchSize - index, rating: Double(index % 100),
                cast: (0..<3).map { MovieActor(name: "actor \((index + $0) % 500) of generation \(generation % 7)") }
            )
        }
        try await store.saveList(movies, for: query, api: "test", fetchedAt: Date())
    }
    FileHandle.standardOutput.write(Data("committed \(generation)\n".utf8))
}
