import Movies

/// A cast member exactly as the API sends it.
public struct APIMovieActor: Decodable, Sendable, Hashable {
    public let name: String

    /// The domain value of this actor.
    public var actor: MovieActor { MovieActor(name: name) }
}
