/// How the shelf's keys name a group: a list's items are keyed `list/movie`, and the part before
/// the first `/` is the group they count in, which storage reads as one range of keys.
public enum ShelfKeys {
    public static func group(of key: String) -> String? {
        key.firstIndex(of: "/").map { String(key[..<$0]) }
    }

    /// The keys of `group` lie after this one and before ``end(of:)`` (`/` and `0` are neighbours).
    public static func start(of group: String) -> String { group + "/" }
    public static func end(of group: String) -> String { group + "0" }
}
