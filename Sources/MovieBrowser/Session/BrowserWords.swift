import Foundation

/// The words of an error for the screen when the app gives no formatter of its own: its
/// description when it has one in words, never a Swift value.
public enum BrowserWords {
    public static func of(_ error: any Error) -> String {
        if let error = error as? any LocalizedError, let words = error.errorDescription { return words }
        let words = String(describing: error)
        // A type with a description of its own prints the same either way; a bare value's
        // reflection names its module and type.
        return words == String(reflecting: error) ? words : "an unexpected error"
    }
}
