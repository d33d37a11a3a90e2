/// A person credited in a movie's cast.
public struct MovieActor: Sendable, Hashable, Codable {
    public var name: String

    public init(name: String) {
        self.name = name
    }
}
