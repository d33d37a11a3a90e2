import IMDbDataSets
import MovieContract

extension IMDbImport {
    /// The films read, made into movies all at once: a test's few.
    public func readMovies() throws(DataSetError) -> (movies: [CatalogMovie], report: Report) {
        let (films, report) = try read()
        return (films.movies(0..<films.count), report)
    }
}
