import Foundation
import MovieAPI
import Networking
import Testing

@Suite("ApiRoute")
struct ApiRouteTests {
    let base = URL(string: "http://danielsaidi.com/demo_Alamofire_AlamofireObjectMapper_Realm/api/")!

    @Test("each route maps to its contract path", arguments: [
        (ApiRoute.auth, "/auth"),
        (.movie(id: 6), "/movies/6"),
        (.topGrossingMovies(year: 2016), "/movies/topGrossing/2016"),
        (.topRatedMovies(year: 2016), "/movies/topRated/2016"),
    ])
    func mapsToContractPaths(route: ApiRoute, path: String) throws {
        let url = try route.endpoint.url(relativeTo: base)
        #expect(url.absoluteString == base.absoluteString.dropLast() + path)
        #expect(route.endpoint.method == .get)
    }

    @Test("the legacy auth route is sent without credentials; movie routes need them")
    func marksAuthentication() {
        #expect(!ApiRoute.auth.endpoint.requiresAuthentication)
        #expect(ApiRoute.movie(id: 1).endpoint.requiresAuthentication)
    }

    @Test("the production environment is the original static site")
    func productionURL() {
        #expect(ApiEnvironment.production.baseURL == base)
    }
}
