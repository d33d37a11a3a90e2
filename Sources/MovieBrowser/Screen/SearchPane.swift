import Movies

/// The search opened with `/`: the words typed, the movies found (a table like a list's), and
/// the cursor of the next page, asked for when the selection reaches the last row.
public struct SearchPane: Sendable, Equatable {
    public var text = ""
    public var results = ListPane()
    /// The cursor of the next page; `nil` when every match is shown (or the store answered).
    public var next: String?
    /// Whether the next page has been asked for and has not come yet.
    public var isLoadingMore = false

    public init(text: String = "") {
        self.text = text
    }
}
