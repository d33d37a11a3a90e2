/// Checks a response against what its endpoint accepts.
enum ResponseValidation {
    static func validate(_ response: APIResponse, for endpoint: Endpoint) throws(NetworkError) {
        guard endpoint.acceptableStatusCodes.contains(response.status.code) else {
            throw .status(code: response.status.code, excerpt: BodyExcerpt.make(from: response.body))
        }
    }
}
