import ArgumentParser

/// A movie id typed on the command line: a whole number of 0 or more. A negative one never reaches
/// the parser as an id (it reads as an option), so ``ErrorReporter`` names it from the command line.
enum MovieIDArgument {
    static func parse(_ text: String) throws -> Int {
        guard let id = Int(text), id >= 0 else { throw ValidationError(rule) }
        return id
    }

    /// What a movie id is.
    static let rule = "ids are whole numbers of 0 or more, as in the Id column of every list"

    /// Why `text` is not a movie id.
    static func problem(with text: String) -> String {
        "'\(text)' is not a movie id: \(rule)"
    }

    /// The first word of `arguments` that looks like a negative number, when the command takes a
    /// movie id (`movie`, `watch add`, `watch remove`, `rate`, `watched`, `list add|remove|move`).
    static func negativeID(in arguments: [String]) -> String? {
        let words = arguments.filter { !$0.hasPrefix("-") }
        let takesAnID = ["movie", "rate", "watched"].contains(words.first)
            || (words.first == "watch" && ["add", "remove"].contains(words.dropFirst().first))
            || (words.first == "list" && ["add", "remove", "move"].contains(words.dropFirst().first))
        guard takesAnID else { return nil }
        return arguments.first { $0.count > 1 && $0.hasPrefix("-") && $0.dropFirst().allSatisfy(\.isNumber) }
    }
}
