import Foundation

/// A length of time in the words the app prints: "45 seconds", "3 minutes", "2 hours", "4 days".
public enum DurationText {
    public static func span(_ seconds: TimeInterval) -> String {
        switch seconds {
        case ..<90: NumberText.counted(Int(seconds.rounded()), "second")
        case ..<5400: "\(Int((seconds / 60).rounded())) minutes"
        case ..<129_600: "\(Int((seconds / 3600).rounded())) hours"
        default: "\(Int((seconds / 86400).rounded())) days"
        }
    }
}

extension DurationText {
    /// How long ago something happened `seconds` ago: "just now" under five seconds, else
    /// "3 minutes ago".
    public static func age(_ seconds: TimeInterval) -> String {
        seconds < 5 ? "just now" : span(seconds) + " ago"
    }
}
