import Hummingbird
import Logging
import NIOHTTP1

/// Makes every error thrown under the router a JSON ``ErrorAnswer`` answer, including the
/// router's own "no such route".
///
/// A request whose framing cannot be parsed is the client's fault: a 400, logged at `info`.
/// Anything else that is not an HTTP error is a bug in the server: it is logged and answered with
/// a 500 that reveals nothing of it.
struct JSONErrorAnswers: Sendable {
    /// The served routes, to tell a wrong method (405) from a path that does not exist (404).
    let routes: RouteTable

    func response(for error: any Error, to request: Request, logger: Logger) -> Response {
        switch error {
        case let error as ErrorAnswer:
            return error.response
        case let error as HTTPError:
            if error.status == .notFound, let allowed = routes.allowedMethods(for: request.uri.path),
               !allowed.contains(request.method.rawValue) {
                return ErrorAnswer(
                    .methodNotAllowed, code: "method_not_allowed",
                    message: "\(request.uri.path.prefix(200)) allows \(allowed.joined(separator: ", ")), not \(request.method.rawValue.prefix(20)).",
                    headerFields: [.allow: allowed.joined(separator: ", ")]
                ).response
            }
            return Self.apiError(for: error, path: request.uri.path).response
        case is HTTPParserError:
            logger.info("malformed request", metadata: ["path": "\(request.uri.path.prefix(200))"])
            return ErrorAnswer(.badRequest, code: "invalid_request", message: "The request is malformed (its framing or body encoding cannot be read).")
                .response
        case let error as any HTTPResponseError:
            return Self.apiError(for: HTTPError(error.status), path: request.uri.path).response
        default:
            logger.error("unexpected error", metadata: ["path": "\(request.uri.path)", "error": "\(String(reflecting: type(of: error)))"])
            return ErrorAnswer(.internalServerError, code: "server_error", message: "The server failed to answer this request.").response
        }
    }

    private static func apiError(for error: HTTPError, path: String) -> ErrorAnswer {
        switch error.status {
        case .notFound:
            .notFound("There is no resource at \(String(path.prefix(200))).")
        case .contentTooLarge:
            ErrorAnswer(.contentTooLarge, code: "invalid_request", message: "The request body is too large.")
        default:
            ErrorAnswer(error.status, code: "invalid_request", message: error.body ?? error.status.reasonPhrase, headerFields: error.headers)
        }
    }
}
