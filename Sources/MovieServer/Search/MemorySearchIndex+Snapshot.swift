extension MemorySearchIndex {
    /// The index as a snapshot's bytes (``SearchIndexSnapshot``).
    func snapshot() -> [UInt8] {
        // The arrays, a length before each, and the header and checksum.
        var writer = SnapshotWriter(capacity: byteCount + 40 * 8 + 64)
        write(into: &writer)
        return writer.finish()
    }

    /// The snapshot handed to `store` a part at a time as it is written, each part as
    /// ``SearchIndexSnapshot/parts(of:)`` cuts the whole, with its number and how many there are.
    func writeSnapshot(partSize: Int, store: @escaping (_ part: ArraySlice<UInt8>, _ number: Int, _ parts: Int) -> Void) {
        var counter = SnapshotWriter.counter()
        write(into: &counter)
        let total = counter.length + 8
        let parts = max(1, (total + partSize - 1) / partSize)
        var number = 0
        var writer = SnapshotWriter(partSize: partSize) { part in
            store(part, number, parts)
            number += 1
        }
        write(into: &writer)
        _ = writer.finish()
    }

    private func write(into writer: inout SnapshotWriter) {
        writer.write(ids)
        writer.write(years)
        writer.write(grossingValues)
        writer.write(ratingValues)
        writer.write(releaseDates)
        writer.write(titleKeys)
        writer.write(runtimes)
        writer.write(votes)
        writer.write(genreBits)
        for postings in [allWords, titleWords] {
            writer.write(postings.words)
            writer.write(postings.starts)
            writer.write(postings.movies)
        }
        writer.write(titles.titles)
        for order in [grossing, rating, released, title] { writer.write(order.order) }
    }

    /// The index a snapshot holds; fails, without trapping, on bytes that are not one.
    init(snapshot bytes: [UInt8]) throws(SearchIndexSnapshot.Unreadable) {
        var reader = try SnapshotReader(bytes)
        let ids: [Int] = try reader.read()
        let count = ids.count
        let years: [Int32] = try reader.read()
        let grossingValues: [Int] = try reader.read()
        let ratingValues: [Double] = try reader.read()
        let releaseDates = try reader.readStrings(), titleKeys = try reader.readStrings()
        let runtimes: [Int32] = try reader.read(), votes: [Int32] = try reader.read(), genreBits: [UInt32] = try reader.read()
        var postings: [WordPostings] = []
        for _ in 0..<2 {
            let words = try reader.readStrings()
            postings.append(try WordPostings(words: words, starts: try reader.read(), movies: try reader.read(), count: count))
        }
        let titles = try reader.readStrings()
        var orders: [MovieOrder] = []
        for _ in 0..<4 { orders.append(try MovieOrder(order: try reader.read())) }
        try reader.finish()
        guard [years.count, grossingValues.count, ratingValues.count, releaseDates.count, titleKeys.count, titles.count, runtimes.count, votes.count, genreBits.count].allSatisfy({ $0 == count }),
              orders.allSatisfy({ $0.order.count == count }) else {
            throw SearchIndexSnapshot.Unreadable(reason: "its parts hold different numbers of movies")
        }
        self.init(
            ids: ids, years: years, grossingValues: grossingValues, ratingValues: ratingValues, releaseDates: releaseDates,
            titleKeys: titleKeys, filterValues: (runtimes, votes, genreBits), allWords: postings[0], titleWords: postings[1], titles: PackedTitles(titles: titles),
            orders: (orders[0], orders[1], orders[2], orders[3])
        )
    }
}

extension MemorySearchIndex {
    /// The bytes the index's arrays hold: what it costs the server, besides the arrays' headers.
    var byteCount: Int {
        func bytes<Element>(_ array: [Element]) -> Int { array.count * MemoryLayout<Element>.stride }
        func bytes(_ strings: PackedStrings) -> Int { bytes(strings.bytes) + bytes(strings.starts) }
        let postings = [allWords, titleWords].reduce(0) { $0 + bytes($1.words) + bytes($1.starts) + bytes($1.movies) }
        let orders = [grossing, rating, released, title].reduce(0) { $0 + bytes($1.order) + bytes($1.rank) }
        return bytes(ids) + bytes(years) + bytes(grossingValues) + bytes(ratingValues) + bytes(releaseDates) + bytes(titleKeys)
            + bytes(runtimes) + bytes(votes) + bytes(genreBits)
            + postings + bytes(titles.titles) + bytes(titles.heads) + orders
    }
}
