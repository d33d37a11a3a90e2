/// How many edits turn one word into another: Damerau–Levenshtein in its optimal string
/// alignment form (inserting, deleting or replacing a letter, or swapping two neighbours, each one
/// edit), over Unicode scalars, so that `jungel` is one edit from `jungle` and `vs` one from `v`.
package enum EditDistance {
    /// The distance from `a` to `b`, or `nil` when it is more than `limit`; rows whose every cell
    /// is past the limit end the count early.
    package static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int? {
        guard abs(a.count - b.count) <= limit else { return nil }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        let width = b.count + 1
        var beforePrevious = [Int](repeating: 0, count: width)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: width)
        for i in 1...a.count {
            current[0] = i
            var smallest = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var best = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    best = min(best, beforePrevious[j - 2] + 1)
                }
                current[j] = best
                smallest = min(smallest, best)
            }
            guard smallest <= limit else { return nil }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count] <= limit ? previous[b.count] : nil
    }
}
