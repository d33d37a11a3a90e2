/// The exit statuses of `marquee`, as the README's table lists them.
enum ExitStatus {
    /// The answer was shown (fresh, or stored with a warning on standard error).
    static let success: Int32 = 0
    /// The command failed; one line on standard error says why.
    static let failure: Int32 = 1
    /// `--fail-on-stale`: the answer shown is a stored one because the network failed.
    static let stale: Int32 = 3
    /// The command line could not be used (ArgumentParser's `EX_USAGE`).
    static let usage: Int32 = 64
}
