/// Every movie of an in-memory catalogue in one sort's order, ascending by (sort value, id), and
/// each movie's rank in it: a page is a range of the order, found by one binary search for the
/// cursor, and movies are compared by their ranks (integers) instead of their values.
struct MovieOrder: Sendable {
    /// Movie indices in ascending order.
    let order: [Int32]
    /// The rank of each movie (by index) in ``order``.
    let rank: [Int32]

    /// The order of `count` movies by `precedes`, which must be a strict total order.
    init(count: Int, by precedes: (Int, Int) -> Bool) {
        let order = (0..<Int32(count)).sorted { precedes(Int($0), Int($1)) }
        var rank = [Int32](repeating: 0, count: count)
        for (position, movie) in order.enumerated() { rank[Int(movie)] = Int32(position) }
        self.order = order
        self.rank = rank
    }

    /// The order a snapshot holds; fails unless it is one of `0..<count`.
    init(order: [Int32]) throws(SearchIndexSnapshot.Unreadable) {
        var rank = [Int32](repeating: -1, count: order.count)
        for (position, movie) in order.enumerated() {
            guard movie >= 0, Int(movie) < order.count, rank[Int(movie)] < 0 else {
                throw SearchIndexSnapshot.Unreadable(reason: "an order is not one of its movies")
            }
            rank[Int(movie)] = Int32(position)
        }
        self.order = order
        self.rank = rank
    }

    /// How many movies come before the point `isBefore` marks: the first rank at which a movie is
    /// not before it (`isBefore` must be true for a prefix of the order and false after).
    func partition(_ isBefore: (Int) -> Bool) -> Int {
        var low = 0, high = order.count
        while low < high {
            let middle = (low + high) / 2
            if isBefore(Int(order[middle])) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
