import MovieContract
/// Makes catalogs of any size for load tests and benchmarks: realistic titles, dates, figures
/// and casts, spread over many years, the same for the same seed on every machine.
public enum SyntheticCatalog {
    /// `count` movies with ids from `firstID` on, over `years`, drawn from `seed` (the same movies,
    /// numbered from elsewhere, for another `firstID`).
    public static func movies(count: Int, seed: UInt64, years: ClosedRange<Int> = 1950...2024, firstID: Int = 1) -> [CatalogMovie] {
        var random = SplitMix64(seed: seed)
        let actors = (0..<max(50, count / 4)).map { _ in
            "\(firstNames.randomElement(using: &random)!) \(lastNames.randomElement(using: &random)!)"
        }
        guard count > 0 else { return [] }
        return (firstID..<firstID + count).map { id in
            let year = Int.random(in: years, using: &random)
            let month = Int.random(in: 1...12, using: &random)
            let day = Int.random(in: 1...28, using: &random)
            let title = [
                titleStarts.randomElement(using: &random)!,
                titleNouns.randomElement(using: &random)!,
                Bool.random(using: &random) ? titleEnds.randomElement(using: &random)! : nil,
            ].compactMap { $0 }.joined(separator: " ")
            let castSize = Int.random(in: 2...6, using: &random)
            return CatalogMovie(
                name: title,
                id: id,
                year: year,
                releaseDate: "\(year)-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)",
                grossing: Int.random(in: 10_000...900_000_000, using: &random),
                rating: Double(Int.random(in: 10...99, using: &random)),
                cast: (0..<castSize).map { _ in CatalogMovie.Actor(name: actors.randomElement(using: &random)!) }
            )
        }
    }

    private static let titleStarts = ["The", "Return of the", "Beyond the", "Rise of the", "Last", "Secret", "Midnight", "Lost", "Silent", "Golden", "Broken", "Dark", "Little", "Wild", "Final"]
    private static let titleNouns = ["Harbor", "Empire", "Garden", "Signal", "Frontier", "Machine", "River", "Kingdom", "Voyage", "Detective", "Orchard", "Mountain", "Letter", "Storm", "Circus", "Engine", "Island", "Witness"]
    private static let titleEnds = ["Returns", "Part II", "Forever", "at Dawn", "of Glass", "in Winter", "Reborn", "Unbound"]
    private static let firstNames = ["Ava", "Ben", "Chloe", "Daniel", "Elena", "Farid", "Grace", "Hiro", "Ines", "Jonas", "Kemi", "Liam", "Maya", "Nils", "Olga", "Pedro", "Quinn", "Rosa", "Sami", "Tara", "Uma", "Viktor", "Wen", "Yusuf", "Zoe"]
    private static let lastNames = ["Abara", "Berg", "Costa", "Dubois", "Eriksen", "Fischer", "Garcia", "Haddad", "Ito", "Jansen", "Kowalski", "Larsen", "Moreau", "Nakamura", "Okafor", "Petrov", "Quiroga", "Rossi", "Silva", "Tanaka", "Ulloa", "Varga", "Weber", "Xu", "Yilmaz", "Zhang"]
}

/// A small, fast, seedable generator (SplitMix64): the same numbers for the same seed everywhere.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
