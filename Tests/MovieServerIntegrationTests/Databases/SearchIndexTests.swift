import Foundation
import Logging
import MovieContract
import Movies
@testable import MovieServer
import Testing

extension ServerDatabaseTests.SearchContractTests {
    @Test("a database's in-process index gives the rules' ids, a page at a time, for every query of the contract", arguments: Backend.databases)
    func indexedPages(backend: Backend) async throws {
        try await backend.withStorage(holding: SearchContract.catalog, searchIndexing: .inProcess) { storage in
            let indexed = try #require(storage as? any SearchIndexed)
            #expect(await indexed.searchIndexReady() != nil)
            try await withServerClient(storage: storage) { client in
                for query in SearchContract.queries + ["query=the&sort=title&order=desc", "query=the&year=2016&sort=released&order=asc", "sort=title&order=desc"] {
                    let walked = try await SearchContract.walk(client, query, limit: 37)
                    #expect(walked == (try SearchContract.expected(query)), "\(backend) \(query)")
                }
            }
            let counts = indexed.searchIndexCounts
            #expect(counts.builds + counts.snapshotReads == 1)
            #expect(counts.answers > 100, "the pages came from the index, not the database's search")
        }
    }

    @Test("after an import, the next search sees the new catalogue at once (the database answers), then the index the import stored does", arguments: Backend.databases)
    func importSeenAtOnce(backend: Backend) async throws {
        try await backend.withStorage(holding: SearchContract.catalog, searchIndexing: .inProcess) { storage in
            let indexed = try #require(storage as? any SearchIndexed)
            let importer = try #require(storage as? any CatalogImporting)
            let before = try #require(await indexed.searchIndexReady())
            let quokka = MovieSearch(words: ["quokka"])
            #expect(try await storage.search(quokka).isEmpty)
            #expect(indexed.searchIndexCounts.answers == 1)

            var renamed = try #require(SearchContract.catalog.movie(id: 900_002))
            renamed.name = "Zootopia and the Quokka"
            _ = try await importer.importMovies([renamed], batchSize: 10) { _ in }
            let found = try await storage.search(quokka)
            #expect(found.map(\.movie.id) == [900_002], "the renamed movie is found by the search right after the import")
            #expect(found.first?.relevance == 1)
            #expect(indexed.searchIndexCounts.answers == 1, "the old index did not answer")

            let after = try #require(await indexed.searchIndexReady())
            #expect(after > before)
            #expect(try await storage.search(quokka).map(\.movie.id) == [900_002])
            #expect(try await storage.search(MovieSearch(words: ["zootopia"])).map(\.movie.id) == [900_002])
            let counts = indexed.searchIndexCounts
            #expect(counts.builds == 0)
            #expect(counts.snapshotReads == 2, "each import stored its catalogue's index, and the server read it")
            #expect(counts.answers == 3)
        }
    }

    @Test("60 concurrent searches before the index exists: each answered right, and one index made", arguments: Backend.databases)
    func concurrentFirstSearches(backend: Backend) async throws {
        try await backend.withStorage(holding: SearchContract.catalog, searchIndexing: .inProcess) { storage in
            let indexed = try #require(storage as? any SearchIndexed)
            let queries = ["pokemon", "the", "ava costa", "zoot", "golden", "re"]
            let answers = try await withThrowingTaskGroup(of: (String, [Int]).self) { group in
                for number in 0..<60 {
                    let query = queries[number % queries.count]
                    group.addTask { (query, try await storage.search(MovieSearch(words: SearchText.words(query), limit: 500)).map(\.movie.id)) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            for (query, ids) in answers {
                #expect(ids == Array(try SearchContract.expected("query=\(query.replacingOccurrences(of: " ", with: "%20"))").prefix(501)), "\(query)")
            }
            _ = await indexed.searchIndexReady()
            #expect(indexed.searchIndexCounts.builds + indexed.searchIndexCounts.snapshotReads == 1)
        }
    }
}
