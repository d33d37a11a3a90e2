import Foundation
import MarqueeTestSupport
import NetworkTestSupport
import Testing

/// What the tests read out of `marquee`'s printed tables.
enum CommandOutput {
    /// The table rows that start with a rank.
    static func rankedRows(_ output: String) -> [Substring] {
        output.split(separator: "\n").filter { line in
            line.drop { $0 == " " }.first?.isNumber == true
        }
    }
}
