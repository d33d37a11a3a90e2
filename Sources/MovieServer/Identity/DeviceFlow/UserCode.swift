/// The short code a person types on the sign-in page to name the device that asks (RFC 8628
/// §6.1): eight letters from twenty consonants, shown as `BCDF-GHJK`. No vowels (no words), no
/// digits (no 0/O, 1/I), case and separators ignored when typed: easy to read aloud and to type.
/// 20⁸ ≈ 2.6 × 10¹⁰ codes, against a handful of guesses before the code expires.
public struct UserCode: Sendable, Hashable, CustomStringConvertible {
    static let alphabet = Array("BCDFGHJKLMNPQRSTVWXZ")
    static let length = 8

    /// The eight letters, without the dash.
    public let letters: String

    /// A new random code.
    static func random() -> UserCode {
        var generator = SystemRandomNumberGenerator()
        return UserCode(letters: String((0..<length).map { _ in alphabet.randomElement(using: &generator)! }))
    }

    private init(letters: String) {
        self.letters = letters
    }

    /// The code as typed: any case, with dashes or spaces anywhere; nil unless it has eight
    /// letters of the alphabet.
    public init?(typed: String) {
        guard typed.count <= 32 else { return nil }
        let letters = typed.uppercased().filter { $0 != "-" && $0 != " " }
        guard letters.count == Self.length, letters.allSatisfy(Self.alphabet.contains) else { return nil }
        self.letters = letters
    }

    /// `BCDF-GHJK`.
    public var description: String { "\(letters.prefix(4))-\(letters.suffix(4))" }
}
