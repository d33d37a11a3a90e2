/// What a request's span leaves out.
enum RequestSpans {
    /// Query parameters whose values a span must not carry: codes and tokens of the sign-in flows.
    static let redactedParameters: Set<String> = [
        "code", "user_code", "device_code", "state", "token", "access_token", "refresh_token", "code_verifier",
    ]
}
