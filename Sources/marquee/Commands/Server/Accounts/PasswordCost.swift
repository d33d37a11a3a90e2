import ArgumentParser
import MovieServer

/// `--password-cost`: bcrypt's cost, from 4 (for tests: fast and weak) to 16 (some 4 s a hash).
enum PasswordCost {
    static let range = 4...16

    static func check(_ cost: Int) throws {
        guard range.contains(cost) else {
            throw ValidationError("the password cost must be from \(range.lowerBound) to \(range.upperBound), not \(cost) (the default is \(PasswordHasher.defaultCost))")
        }
    }
}
