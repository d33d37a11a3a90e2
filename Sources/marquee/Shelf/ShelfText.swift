import ArgumentParser
import MovieContract
import MovieStore
import Networking
import TextFormatting

/// The words the shelf's commands use for what happened.
enum ShelfText {
    static func describe(_ failure: ShelfSyncFailure<NetworkError>) -> String {
        ErrorReporter.describe(failure)
    }

    /// "7/10 (★★★½)": a score, and the same as half-stars out of five.
    static func score(_ score: Int) -> String {
        Ratings.text(score)
    }

    /// A score typed on the command line: a whole number from 1 to 10.
    static func parseScore(_ text: String) throws -> Int {
        guard text.utf8.allSatisfy({ (48...57).contains($0) }), let score = Int(text), Ratings.scores.contains(score) else {
            throw ValidationError(
                "'\(TerminalText.safe(String(text.prefix(40))))' is not a score: a score is a whole number from 1 to 10 (a half-star scale is the same halved: 7 is three and a half stars)"
            )
        }
        return score
    }
}
