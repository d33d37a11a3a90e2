/// Why a ``CachedMovieService`` call ended without an answer. `NetworkFailure` is the base
/// service's own error type, kept as it was thrown.
public enum CacheFailure<NetworkFailure: Error>: Error {
    /// The network failed and nothing stored could stand in.
    case network(NetworkFailure)
    /// The store could not be read.
    case store(StoreError)
    /// The policy forbids the network and nothing is stored for `what` (`the top rated movies of 2016`).
    case nothingStored(what: String)
    /// The calling task was cancelled.
    case cancelled
}

extension CacheFailure {
    /// Whether the call ended because its task was cancelled: nothing to report.
    public var isCancellation: Bool {
        if case .cancelled = self { true } else { false }
    }
}

extension CacheFailure: CustomStringConvertible {
    public var description: String {
        switch self {
        case let .network(failure): "\(failure)"
        case let .store(failure): failure.description
        case let .nothingStored(what): "nothing is stored for \(what) yet; run once with the network to fill the store"
        case .cancelled: "cancelled"
        }
    }
}

extension CacheFailure: Equatable where NetworkFailure: Equatable {}
