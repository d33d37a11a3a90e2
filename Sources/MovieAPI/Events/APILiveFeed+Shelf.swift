import Foundation
import MovieContract
import Movies

extension APILiveFeed {
    /// A `shelf` event's record, read as its kind's value; nil for a kind this client does not
    /// know (a newer server's), or a body that is not one.
    static func shelfChange(_ data: Data) -> ShelfLiveChange? {
        guard let named = try? JSONDecoder().decode(FeedWire.ShelfChangeKind.self, from: data),
              let kind = ShelfKinds.all.first(where: { $0.name == named.kind }) else { return nil }
        return read(data, as: kind)
    }

    private static func read<Kind: ShelfKind>(_ data: Data, as kind: Kind.Type) -> ShelfLiveChange? {
        guard let change = try? JSONDecoder().decode(FeedWire.ShelfChange<Kind.Value>.self, from: data),
              let changedAt = WatchlistClock.milliseconds(change.changedAt),
              change.removed == (change.value == nil) else { return nil }
        return ShelfLiveChange(kind: Kind.name, key: change.key, value: change.value.map(Kind.text(of:)), changedAt: changedAt)
    }
}
