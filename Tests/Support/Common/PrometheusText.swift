import Foundation

/// The samples of a Prometheus text exposition.
public struct PrometheusText: Sendable {
    public let text: String

    public init(_ body: Data) {
        text = String(decoding: body, as: UTF8.self)
    }

    /// The value of the sample named `name` whose labels include `labels`; the sum if several match.
    public func value(_ name: String, _ labels: [String: String]) -> Double? {
        var total: Double?
        for line in text.split(separator: "\n") where line.hasPrefix(name + "{") || line.hasPrefix(name + " ") {
            let sample = line.dropFirst(name.count)
            let labelText = sample.hasPrefix("{") ? sample.lastIndex(of: "}").map { String(sample[..<$0]) } ?? "" : ""
            guard labels.allSatisfy({ labelText.contains("\($0.key)=\"\($0.value)\"") }) else { continue }
            guard let value = line.split(separator: " ").last.flatMap({ Double($0) }) else { continue }
            total = (total ?? 0) + value
        }
        return total
    }
}
