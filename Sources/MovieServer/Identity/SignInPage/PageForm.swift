/// The fields the sign-in page's forms send (form-encoded); each form sends some of them.
struct PageForm: Decodable, Sendable {
    var csrf: String?
    var name: String?
    var password: String?
    var user_code: String?
    var decision: String?
}
