import Foundation

/// Each device a person signed in on: what the device flow and the sign-in page record, what a
/// refresh and every personal request check, and what `/api/account/sessions` lists and ends.
public protocol SignInStorage: Sendable {
    /// Records a device signed in to an account; `false` (and nothing saved) when no account has
    /// the sign-in's name and account id any more (removed, or removed and made again).
    func saveSignIn(_ signIn: StoredSignIn) async throws(StorageError) -> Bool

    /// The sign-in with this id, if it has not ended.
    func signIn(id: String) async throws(StorageError) -> StoredSignIn?

    /// The account's sign-ins, the most recently used first.
    func signIns(ofAccount name: String) async throws(StorageError) -> [StoredSignIn]

    /// Notes that the sign-in was used at `date`.
    func touchSignIn(id: String, at date: Date) async throws(StorageError)

    /// Ends the account's sign-in `id`, or all of them when `id` is nil, with their refresh
    /// tokens; returns how many ended.
    func endSignIns(ofAccount name: String, id: String?) async throws(StorageError) -> Int
}
