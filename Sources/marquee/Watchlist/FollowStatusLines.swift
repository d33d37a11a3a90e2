import Movies

/// Which of the live feed's states `watchlist --follow` prints: a break once, with its reason and
/// the first wait, then nothing while the feed keeps trying, until it is live again; a wait that
/// began with the command's own warning (the server was down at the start) prints nothing until
/// then. Without it, a server that stays down printed a `connecting` and a `reconnecting` line at
/// every try.
struct FollowStatusLines {
    private var waiting: Bool

    /// `waiting`: the person was already told the server cannot be reached.
    init(waiting: Bool) {
        self.waiting = waiting
    }

    mutating func line(for status: LiveStatus) -> String? {
        switch status {
        case .connecting:
            return waiting ? nil : status.description
        case .reconnecting:
            guard !waiting else { return nil }
            waiting = true
            return status.description
        case .live, .behind, .off, .signedOut:
            waiting = false
            return status.description
        }
    }
}
