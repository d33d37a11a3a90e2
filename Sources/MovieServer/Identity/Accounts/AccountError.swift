/// Why an account could not be made, changed or used, in words for the person or operator.
public enum AccountError: Error, Sendable, CustomStringConvertible {
    case invalidName(String)
    case unacceptablePassword(String)
    case nameTaken(String)
    case unknownAccount(String)
    /// The storage failed; the operation may be tried again.
    case storage(StorageError)
    /// Too many password checks are waiting already (``PasswordHasher/maximumWaiting``).
    case busy

    public var description: String {
        switch self {
        case let .invalidName(reason), let .unacceptablePassword(reason): reason
        case let .nameTaken(name): "The account name '\(name)' is taken."
        case let .unknownAccount(name): "There is no account '\(name)'."
        case let .storage(error): error.description
        case .busy: "Too many sign-ins are being checked at once; try again in a moment."
        }
    }
}
