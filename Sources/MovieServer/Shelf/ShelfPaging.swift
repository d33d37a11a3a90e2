import Hummingbird
import HummingbirdCore
import MovieContract

/// Reads the query string of `GET /api/{kind}` strictly: `limit` (1 to 5,000; 1,000 unless
/// given) and `after` (the `next` of the page before), each once, nothing else.
enum ShelfPaging {
    static let names = ["limit", "after"]

    static func parse(_ uri: URI) throws(ErrorAnswer) -> (after: String?, limit: Int) {
        var values: [String: String] = [:]
        for (name, value) in QueryParameters.read(uri.query.map { $0[...] } ?? "") {
            guard names.contains(name) else {
                throw .badRequest("Unknown parameter '\(ParameterParsing.excerpt(name))': the parameters are limit and after.")
            }
            guard values.updateValue(value, forKey: name) == nil else { throw .badRequest("The parameter '\(name)' is given more than once.") }
        }
        let sizes = APILimits.shelfPageSizes
        var limit = APILimits.defaultShelfPageSize
        if let text = values["limit"] {
            guard let number = ParameterParsing.wholeNumber(text[...]), sizes.contains(number) else {
                throw .badRequest("The limit is a whole number from \(sizes.lowerBound) to \(sizes.upperBound), not '\(ParameterParsing.excerpt(text))'.")
            }
            limit = number
        }
        let after = values["after"]
        if let after, after.isEmpty || after.utf8.count > 200 || !after.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) {
            throw .badRequest("after is the next of the page before: 1 to 200 visible ASCII characters.")
        }
        return (after, limit)
    }
}
