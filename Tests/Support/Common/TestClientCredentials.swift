import MovieAPI

extension APIClientCredentials {
    /// The development pair every test server accepts.
    public static let testClient = APIClientCredentials(id: "marquee-dev", secret: "marquee-dev-secret")
}
