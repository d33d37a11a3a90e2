import Foundation
import Movies

enum Sample {
    static let fetchedAt = Date(timeIntervalSince1970: 1_800_000_000)

    static func movie(_ id: Int, name: String? = nil, cast: [String] = ["Ann Actor", "Bob Actor"]) -> Movie {
        Movie(
            id: id, name: name ?? "Movie \(id)", year: 2016,
            releaseDate: Date(timeIntervalSince1970: 1_451_606_400 + Double(id) * 86_400),
            grossing: 1_000_000 * id, rating: Double(id % 10) + 0.5, cast: cast.map(MovieActor.init)
        )
    }

    static let ten = (1...10).map { movie($0) }
}
