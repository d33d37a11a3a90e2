/// What a growing count settles at: polled every 50 ms, it is returned once it stayed the same for
/// `quiet`, or as soon as it passes `bound` (so a count that keeps growing fails a test at once,
/// not at a time limit), or when `limit` passes. The answer is a count, never a time: how long
/// anything took is not what is checked.
public func settled(_ count: () -> Int, passing bound: Int, quiet: Duration = .seconds(2), limit: Duration = .seconds(60)) async throws -> Int {
    let clock = ContinuousClock()
    let deadline = clock.now + limit
    var last = count()
    var since = clock.now
    while clock.now < deadline {
        try await Task.sleep(for: .milliseconds(50))
        let now = count()
        if now > bound { return now }
        if now != last {
            last = now
            since = clock.now
        } else if clock.now - since >= quiet {
            return now
        }
    }
    return count()
}
