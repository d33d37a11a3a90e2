import Foundation

/// Decodes JSON bodies and reports failures with the JSON path of the value that did not fit.
///
/// Bodies are decoded whatever their `Content-Type`, and whitespace around them is ignored. A
/// ``JSONReadable`` value is read with a ``JSONReader`` first, and with `JSONDecoder` only when
/// the reader declines: same values, same errors, a fraction of the time.
public enum ResponseDecoding {
    public static func decode<Value: JSONReadable>(_ type: Value.Type, from body: Data) throws(NetworkError) -> Value {
        if let value = JSONReader.read(type, from: body) { return value }
        return try decodeWithFoundation(type, from: body)
    }

    public static func decode<Value: Decodable>(_ type: Value.Type, from body: Data) throws(NetworkError) -> Value {
        try decodeWithFoundation(type, from: body)
    }

    /// `JSONDecoder`'s value, or its error with the JSON path of the value that did not fit.
    public static func decodeWithFoundation<Value: Decodable>(_ type: Value.Type, from body: Data) throws(NetworkError) -> Value {
        do {
            return try JSONDecoder().decode(type, from: body)
        } catch let error as DecodingError {
            throw describe(error)
        } catch {
            throw .cannotDecode(path: "$", reason: "the body could not be decoded")
        }
    }

    static func describe(_ error: DecodingError) -> NetworkError {
        switch error {
        case let .typeMismatch(expected, context):
            .cannotDecode(path: jsonPath(context.codingPath), reason: "expected \(typeName(expected)). \(context.debugDescription)")
        case let .valueNotFound(expected, context):
            .cannotDecode(path: jsonPath(context.codingPath), reason: "expected \(typeName(expected)) but found null")
        case let .keyNotFound(key, context):
            .cannotDecode(path: jsonPath(context.codingPath + [key]), reason: "the key is missing")
        case let .dataCorrupted(context):
            .cannotDecode(
                path: jsonPath(context.codingPath),
                reason: context.codingPath.isEmpty ? "the body is not valid JSON" : context.debugDescription
            )
        @unknown default:
            .cannotDecode(path: "$", reason: "the body could not be decoded")
        }
    }

    /// `$`, `$[3]`, `$[3].releaseDate`, `$.cast[0].name`.
    static func jsonPath(_ codingPath: [any CodingKey]) -> String {
        codingPath.reduce(into: "$") { path, key in
            if let index = key.intValue { path += "[\(index)]" } else { path += ".\(key.stringValue)" }
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Int64.Type: "an integer"
        case is Double.Type: "a number"
        case is Bool.Type: "true or false"
        default:
            String(describing: type).hasPrefix("Array") ? "an array" : "an object"
        }
    }
}
