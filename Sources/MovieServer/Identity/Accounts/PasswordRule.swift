import Foundation

/// What a password must be, and the one form it is hashed and checked in.
///
/// A password is read as RFC 8265's OpaqueString: a space of any kind becomes U+0020 and the text
/// is put in Unicode normalization form C, so that `é` typed as one code point or as `e` and a
/// combining accent is one password. Then it must be 8 to 72 bytes of UTF-8 (bcrypt reads no
/// further than 72, so a longer one would be silently cut: refused when chosen, and never
/// matched when typed), with no control characters, not holding the account's name (of three
/// characters or more), not a run or a
/// repeat of a few characters (`aaaaaaaa`, `abcdefgh`, `abababab`), and not one of the passwords
/// people choose most (a list of some 200 kept with the server, NIST SP 800-63B §5.1.1.2).
public enum PasswordRule {
    public static let minimumLength = 8
    public static let maximumBytes = 72

    /// The password as it is hashed and checked (RFC 8265 OpaqueString).
    public static func normalized(_ password: String) -> String {
        let spaced = String(String.UnicodeScalarView(password.unicodeScalars.map { scalar in
            scalar.properties.generalCategory == .spaceSeparator ? " " : scalar
        }))
        return spaced.precomposedStringWithCanonicalMapping
    }

    /// Throws what is wrong with `password` for the account `name`, in words a person can act on.
    public static func check(_ password: String, accountName name: String? = nil) throws(AccountError) {
        let password = normalized(password)
        guard password.count >= minimumLength else {
            throw .unacceptablePassword("The password must have at least \(minimumLength) characters.")
        }
        guard password.utf8.count <= maximumBytes else {
            throw .unacceptablePassword("The password must be at most \(maximumBytes) bytes long (bcrypt reads no further).")
        }
        guard !password.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .unacceptablePassword("The password must not contain control characters.")
        }
        let folded = password.lowercased()
        if let name, name.count >= 3, folded.contains(name.lowercased()) {
            throw .unacceptablePassword("The password must not contain the account's name.")
        }
        guard !isRunOrRepeat(folded) else {
            throw .unacceptablePassword("The password must not be a run or a repeat of a few characters; a few words of your own make a good one.")
        }
        guard !CommonPasswords.list.contains(folded) else {
            throw .unacceptablePassword("That password is one of the most common ones, the first an attacker tries; choose another.")
        }
    }

    /// `aaaaaaaa`, `abababab`, `12345678`, `hgfedcba`: two distinct characters or fewer, or each
    /// character one after (or before) the one before it.
    private static func isRunOrRepeat(_ password: String) -> Bool {
        let scalars = password.unicodeScalars.map(\.value)
        if Set(scalars).count <= 2 { return true }
        let steps = Set(zip(scalars, scalars.dropFirst()).map { Int64($1) - Int64($0) })
        return steps == [1] || steps == [-1]
    }
}

/// The passwords people choose most, as kept with the server (`Resources/passwords/common.txt`).
enum CommonPasswords {
    static let list: Set<String> = {
        guard let url = Bundle.module.url(forResource: "passwords/common", withExtension: "txt") ?? Bundle.module.url(forResource: "common", withExtension: "txt", subdirectory: "passwords"),
              let text = try? String(contentsOf: url, encoding: .utf8)
        else { return [] }
        return Set(text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") })
    }()
}
