import Foundation
import MovieAPI

/// A person's sign-in that another process stored (`marquee login` in another terminal) for the
/// account a `browse` run means: the one `--account`, `MARQUEE_ACCOUNT` or the config file names,
/// else the API's default account, as it stands when asked.
struct SignInElsewhere: Sendable {
    let file: URL
    let identity: APIIdentity
    let accountOption: String?

    /// How often the credentials file is looked at: a sign-in made elsewhere shows within this.
    static let interval: Duration = .milliseconds(250)

    /// The account signed in, with the access token stored for it, when the file holds one now.
    func stored() -> (account: String, accessToken: String)? {
        guard let people = try? FileAPIContext.people(in: file, for: identity),
              let account = try? AccountChoice.account(named: accountOption, defaultAccount: people.defaultAccount),
              people.accounts.contains(account),
              let credential = try? FileAPIContext.stored(in: file, for: identity).first(where: { $0.holder == .person(account: account) })?.credential
        else { return nil }
        return (account, credential.accessToken)
    }

    /// Waits until `accept` takes a sign-in the file holds, asking again each time the file
    /// changes; the account it took, or `nil` when the task was cancelled first.
    func wait(until accept: ((account: String, accessToken: String)) -> Bool) async -> String? {
        var seen: FileStamp?
        while !Task.isCancelled {
            let stamp = FileStamp(of: file)
            if stamp != seen {
                seen = stamp
                if let found = stored(), accept(found) { return found.account }
            }
            try? await Task.sleep(for: Self.interval)
        }
        return nil
    }
}

/// What tells one version of a file from the next without reading it: its inode, size and time
/// of last change (a file replaced by a rename is a new inode).
struct FileStamp: Equatable, Sendable {
    let inode: UInt64
    let size: Int64
    let changed: timespec

    init?(of url: URL) {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return nil }
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        changed = info.st_ctim
    }

    static func == (left: FileStamp, right: FileStamp) -> Bool {
        left.inode == right.inode && left.size == right.size && left.changed.tv_sec == right.changed.tv_sec && left.changed.tv_nsec == right.changed.tv_nsec
    }
}
