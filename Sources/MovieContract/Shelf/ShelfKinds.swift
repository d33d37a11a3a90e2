/// Every kind of the shelf beyond the watchlist, in the order the server serves and a device
/// syncs them.
public enum ShelfKinds {
    public static let all: [any ShelfKind.Type] = [Ratings.self, Diary.self, Lists.self, ListItems.self]
}
