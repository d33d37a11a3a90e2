/// The body of every error answer of the movie API, the shape RFC 6749 gives token errors:
/// `{"error": code, "error_description": message}`. The code is for programs; the message says
/// what to do, in words a person can act on. Read by the client too, where a missing
/// `error_description` (which RFC 6749 allows another server to leave out) is read as empty.
public struct ErrorBody: Codable, Sendable, Hashable {
    public var error: String
    public var errorDescription: String

    private enum CodingKeys: String, CodingKey {
        case error
        case errorDescription = "error_description"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        error = try container.decode(String.self, forKey: .error)
        errorDescription = try container.decodeIfPresent(String.self, forKey: .errorDescription) ?? ""
    }

    public init(error: String, errorDescription: String) {
        self.error = error
        self.errorDescription = errorDescription
    }

    /// The bytes `JSONEncoder` gives with sorted keys and unescaped slashes, written directly.
    public var json: String {
        var output = "{\"error\":"
        ContractJSON.writeString(error, to: &output)
        output += ",\"error_description\":"
        ContractJSON.writeString(errorDescription, to: &output)
        return output + "}"
    }
}
