/// The command a mistyped one most likely meant: "did you mean 'top-grossing'?".
enum CommandSuggestion {
    /// The name in `names` closest to `typed`, when it is close enough to be a typo (at most a
    /// third of its letters wrong) or `typed` is the start of only it.
    static func closest(to typed: String, among names: [String]) -> String? {
        let lowered = typed.lowercased()
        let starting = names.filter { $0.hasPrefix(lowered) }
        if starting.count == 1, !lowered.isEmpty { return starting[0] }
        let scored = names.map { ($0, distance(lowered, $0)) }.min { $0.1 < $1.1 }
        guard let (name, score) = scored, score <= max(1, name.count / 3) else { return nil }
        return name
    }

    /// The Levenshtein distance: how many letters to insert, delete or replace.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
