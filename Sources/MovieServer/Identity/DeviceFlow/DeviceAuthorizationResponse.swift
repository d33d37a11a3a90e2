/// The answer to `POST /api/auth/device` (RFC 8628 §3.2).
struct DeviceAuthorizationResponse: Encodable, Sendable {
    let device_code: String
    let user_code: String
    let verification_uri: String
    let verification_uri_complete: String
    let expires_in: Int
    let interval: Int
}
