/// Storage whose searches an in-process index may answer (``SearchIndexKeeper``), seen by the tests.
package protocol SearchIndexed: Sendable {
    /// Makes the index now, or waits for the one being made; the catalogue version it holds.
    func searchIndexReady() async -> Int64?
    var searchIndexCounts: SearchIndexCounts { get }
}
