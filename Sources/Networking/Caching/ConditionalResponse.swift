/// The answer to a request sent with `If-None-Match`.
public enum ConditionalResponse: Sendable {
    /// A new representation (any accepted status but `304`).
    case modified(APIResponse)
    /// `304 Not Modified`: the representation whose tag was sent is current.
    case notModified(APIResponse)
}
