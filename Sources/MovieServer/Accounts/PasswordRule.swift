/// What a password must be: 8 to 72 bytes of UTF-8 (bcrypt reads no further than 72, so a longer
/// one would be silently cut), with no control characters.
public enum PasswordRule {
    public static let minimumLength = 8
    public static let maximumBytes = 72

    /// Throws what is wrong with `password`, in words a person can act on.
    public static func check(_ password: String) throws(AccountError) {
        guard password.count >= minimumLength else {
            throw .unacceptablePassword("The password must have at least \(minimumLength) characters.")
        }
        guard password.utf8.count <= maximumBytes else {
            throw .unacceptablePassword("The password must be at most \(maximumBytes) bytes long (bcrypt reads no further).")
        }
        guard !password.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .unacceptablePassword("The password must not contain control characters.")
        }
    }
}
