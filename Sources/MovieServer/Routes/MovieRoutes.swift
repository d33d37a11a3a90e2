import Hummingbird

/// The movie paths of the contract, under `movies/`: one movie by id, and the top lists of a year.
///
/// Bodies are compact JSON with the contract's key order; the top lists are encoded once, when
/// the routes are built.
struct MovieRoutes: Sendable {
    private let catalog: Catalog
    private let topGrossingBodies: [Int: ByteBuffer]
    private let topRatedBodies: [Int: ByteBuffer]

    init(catalog: Catalog) {
        self.catalog = catalog
        let years = Set(catalog.movies.map(\.year))
        var grossing: [Int: ByteBuffer] = [:], rated: [Int: ByteBuffer] = [:]
        for year in years {
            grossing[year] = ByteBuffer(string: ContractJSON.list(catalog.topGrossing(year: year)))
            rated[year] = ByteBuffer(string: ContractJSON.list(catalog.topRated(year: year)))
        }
        topGrossingBodies = grossing
        topRatedBodies = rated
    }

    func register<Context: RequestContext>(on router: some RouterMethods<Context>) {
        router.get(":id") { _, context in
            let id = try ParameterParsing.movieID(context.parameters.get("id"))
            guard let movie = catalog.movie(id: id) else {
                throw ErrorAnswer.notFound("There is no movie with id \(id).")
            }
            return Self.json(ByteBuffer(string: ContractJSON.movie(movie)))
        }
        router.get("") { _, _ -> Response in
            throw ErrorAnswer.badRequest("The movie id is missing: use /api/movies/{id}.")
        }
        for list in ["topGrossing", "topRated"] {
            router.get("\(list)") { _, _ -> Response in
                throw ErrorAnswer.badRequest("The year is missing: use /api/movies/\(list)/{year}.")
            }
        }
        router.get("topGrossing/:year") { _, context in
            let year = try ParameterParsing.year(context.parameters.get("year"))
            return Self.json(topGrossingBodies[year] ?? Self.emptyList)
        }
        router.get("topRated/:year") { _, context in
            let year = try ParameterParsing.year(context.parameters.get("year"))
            return Self.json(topRatedBodies[year] ?? Self.emptyList)
        }
    }

    private static let emptyList = ByteBuffer(string: "[]")

    static func json(_ body: ByteBuffer) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: body))
    }
}
