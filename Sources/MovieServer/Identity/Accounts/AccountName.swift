/// An account's name: 1 to 32 lower-case letters (a–z), digits, `.`, `-` or `_`, starting with a
/// letter or digit. Typed in any case; kept and compared in lower case, so `Alice` and `alice`
/// are one account.
public struct AccountName: Sendable, Hashable, CustomStringConvertible {
    public let value: String
    public static let maximumLength = 32

    public init(_ typed: String) throws(AccountError) {
        let name = typed.lowercased()
        guard !name.isEmpty else { throw .invalidName("The account name is empty.") }
        guard name.count <= Self.maximumLength else {
            throw .invalidName("The account name is longer than \(Self.maximumLength) characters.")
        }
        guard name.unicodeScalars.allSatisfy(Self.isAllowed), let first = name.unicodeScalars.first, Self.isLetterOrDigit(first) else {
            throw .invalidName("An account name has letters a-z, digits, '.', '-' and '_', and starts with a letter or digit.")
        }
        value = name
    }

    public var description: String { value }

    private static func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)
    }

    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        isLetterOrDigit(scalar) || scalar == "." || scalar == "-" || scalar == "_"
    }
}
