import Foundation
import MovieAPI
import Networking
import Testing

@Suite("APIRoute")
struct APIRouteTests {
    let base = URL(string: "http://danielsaidi.com/demo_Alamofire_AlamofireObjectMapper_Realm/api/")!

    @Test("each route maps to its contract path", arguments: [
        (APIRoute.auth, "/auth"),
        (.movie(id: 6), "/movies/6"),
        (.movies(.topGrossing, year: 2016), "/movies/topGrossing/2016"),
        (.movies(.topRated, year: 2016), "/movies/topRated/2016"),
    ])
    func mapsToContractPaths(route: APIRoute, path: String) throws {
        let url = try route.endpoint.url(relativeTo: base)
        #expect(url.absoluteString == base.absoluteString.dropLast() + path)
        #expect(route.endpoint.method == .get)
    }

    @Test("the legacy auth route is sent without credentials; movie routes need them")
    func marksAuthentication() {
        #expect(!APIRoute.auth.endpoint.requiresAuthentication)
        #expect(APIRoute.movie(id: 1).endpoint.requiresAuthentication)
    }

    @Test("the production environment is the original static site")
    func productionURL() {
        #expect(APIEnvironment.production.baseURL == base)
    }
}
