/// A ``MovieService`` that can ask conditionally: given the entity tag of the answer a caller
/// holds, it says either that the answer is current or what replaces it, with its ``Freshness``.
///
/// A cache that decorates a `MovieService` uses this when its base offers it, so an unchanged
/// answer costs a `304` instead of a whole body.
public protocol RevalidatingMovieService<Failure>: MovieService {
    func movie(id: Int, ifNoneMatch entityTag: String?) async throws(Failure) -> Revalidation<Movie>

    func topGrossingMovies(year: Int, ifNoneMatch entityTag: String?) async throws(Failure) -> Revalidation<[Movie]>

    func topRatedMovies(year: Int, ifNoneMatch entityTag: String?) async throws(Failure) -> Revalidation<[Movie]>
}
