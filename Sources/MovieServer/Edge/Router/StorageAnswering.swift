/// Runs a storage call for a request: the one place where a storage failure becomes what a
/// client is told (``ErrorAnswer/storageUnavailable(_:)``: a `503` with `Retry-After`, which
/// names nothing of the database).
func answering<Value>(_ call: () async throws(StorageError) -> Value) async throws(ErrorAnswer) -> Value {
    do {
        return try await call()
    } catch {
        throw ErrorAnswer.storageUnavailable(error)
    }
}
