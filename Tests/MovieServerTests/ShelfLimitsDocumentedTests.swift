import Foundation
import MarqueeTestSupport
import MovieContract
import Testing

/// The shelf's limits are what the Shelf article tells people: a change of one without the other
/// fails here.
@Suite("The shelf's documented limits")
struct ShelfLimitsDocumentedTests {
    @Test("the Shelf article names each kind's limit, a list's size and the page sizes as the kinds keep them")
    func limitsMatchTheArticle() throws {
        let article = try String(contentsOf: repositoryRoot.appendingPathComponent("Sources/MovieStore/MovieStore.docc/Shelf.md"), encoding: .utf8)
            .replacingOccurrences(of: "\n", with: " ")
        func grouped(_ number: Int?) -> String { (number ?? 0).formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US"))) }
        #expect(article.contains("at most \(grouped(Diary.recordLimit)) diary entries, \(grouped(Lists.recordLimit)) lists and \(grouped(ListItems.recordLimit)) movies"))
        #expect(article.contains("a list holds \(grouped(ListItems.itemLimit)) movies"))
        #expect(article.contains("(\(grouped(APILimits.defaultShelfPageSize)) unless asked, at most \(grouped(APILimits.shelfPageSizes.upperBound)))"))
        #expect(Ratings.recordLimit == nil, "ratings are bounded by the catalogue: a rating of a movie it lacks is refused, a clear too")
    }
}
