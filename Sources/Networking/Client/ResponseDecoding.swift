import Foundation

/// Decodes JSON bodies and reports failures with the JSON path of the value that did not fit.
///
/// Bodies are decoded whatever their `Content-Type`, and whitespace around them is ignored.
public enum ResponseDecoding {
    public static func decode<Value: Decodable>(_ type: Value.Type, from body: Data) throws(NetworkError) -> Value {
        do {
            return try JSONDecoder().decode(type, from: body)
        } catch let error as DecodingError {
            throw describe(error)
        } catch {
            throw .cannotDecode(path: "$", reason: String(describing: error))
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
            .cannotDecode(path: "$", reason: String(describing: error))
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
