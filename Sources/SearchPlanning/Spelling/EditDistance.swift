/// How many edits turn one word into another: Damerau–Levenshtein in its optimal string
/// alignment form (inserting, deleting or replacing a letter, or swapping two neighbours, each one
/// edit), over Unicode scalars, so that `jungel` is one edit from `jungle` and `vs` one from `v`.
package enum EditDistance {
    /// The distance from `a` to `b`, or `nil` when it is more than `limit`.
    package static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int? {
        a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in distance(a, b, limit: limit) } }
    }

    /// The distance between two runs of letters (scalars, or the bytes of ASCII words), or `nil`
    /// when it is more than `limit`; rows whose every cell is past the limit end the count early.
    package static func distance<Letter: Equatable>(_ a: UnsafeBufferPointer<Letter>, _ b: UnsafeBufferPointer<Letter>, limit: Int) -> Int? {
        guard abs(a.count - b.count) <= limit else { return nil }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        let width = b.count + 1
        var rows = [Int](repeating: 0, count: 3 * width)
        return rows.withUnsafeMutableBufferPointer { rows in
            // Rows i - 2, i - 1 and i, taking turns in the one buffer.
            var (beforePrevious, previous, current) = (0, width, 2 * width)
            for j in 0...b.count { rows[previous + j] = j }
            for i in 1...a.count {
                rows[current] = i
                var smallest = i
                for j in 1...b.count {
                    let cost = a[i - 1] == b[j - 1] ? 0 : 1
                    var best = min(rows[previous + j] + 1, rows[current + j - 1] + 1, rows[previous + j - 1] + cost)
                    if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                        best = min(best, rows[beforePrevious + j - 2] + 1)
                    }
                    rows[current + j] = best
                    smallest = min(smallest, best)
                }
                guard smallest <= limit else { return nil }
                (beforePrevious, previous, current) = (previous, current, beforePrevious)
            }
            let last = rows[previous + b.count]
            return last <= limit ? last : nil
        }
    }
}
