/// The situations of the protocol-oriented networking article, played by a ``StubTransport``
/// on top of its rules.
public enum StubScenario: String, Sendable, CaseIterable {
    /// Every request is answered by the rules.
    case success
    /// Requests that need authentication are refused with 401 the first time and 403 after the
    /// client has authorized again; the others (the token endpoint) are answered by the rules.
    case invalidPermissions
    /// Every request waits out its timeout and fails with ``NetworkError/timedOut(after:)``.
    case timeout
    /// Every request fails as if the machine had no network: the connection is refused.
    case noNetwork
}
