/// Runs `operation`, then `cleanup` whether it threw or not, then returns or rethrows.
public func finally<Result>(
    _ operation: @autoclosure () async throws -> Result,
    cleanup: () async -> Void
) async throws -> Result {
    let outcome: Swift.Result<Result, any Error>
    do { outcome = .success(try await operation()) } catch { outcome = .failure(error) }
    await cleanup()
    return try outcome.get()
}
