/// Who holds the feed's streams on this instance, and the rules that share them out: an
/// instance's cap, an address's, an account's and an application's, and the instance's last
/// places kept for addresses that hold none.
///
/// An *address* is the client's (``TrustedProxies``), an IPv6 address counted by its /64
/// (``IPAddress/party``). A stream for an address or a reader that holds one already is admitted
/// only while the instance holds fewer than ``FeedSettings/maximumStreams`` −
/// ``FeedSettings/reservedStreams``, so an address's second and later streams never number more
/// than that. Hence the guarantee: a person who holds no stream, from an address that holds
/// none, is refused only when the instance holds all its streams and they belong to at least
/// ``FeedSettings/reservedStreams`` different addresses.
struct StreamShares: Sendable {
    /// Who reads a stream, as the feed counts them: a person by their watchlist's owner, an
    /// application (a token of its own, no person) by its client id.
    enum Reader: Sendable, Hashable {
        case person(owner: String)
        case application(clientID: String)
    }

    /// One stream's place: whose it is and where it comes from.
    struct Holder: Sendable, Hashable {
        var reader: Reader
        /// The client's party (``IPAddress/party``), or `"unknown"` for a peer with no address.
        var address: String
    }

    /// Why a stream was not given a place.
    enum Refusal: Error, Sendable, Equatable {
        /// The instance holds ``FeedSettings/maximumStreams``.
        case full
        /// The instance's last places are kept for addresses that hold no stream, and this one holds some.
        case reserved
        /// The address holds ``FeedSettings/streamsPerAddress``.
        case addressAtLimit
        /// The person holds ``FeedSettings/streamsPerPerson``.
        case personAtLimit
        /// The application holds ``FeedSettings/streamsPerApplication``, or applications together
        /// hold ``FeedSettings/applicationStreams``.
        case applicationAtLimit
    }

    let settings: FeedSettings
    private(set) var total = 0
    private(set) var applicationStreams = 0
    private var byReader: [Reader: Int] = [:]
    private var byAddress: [String: Int] = [:]

    init(settings: FeedSettings) {
        self.settings = settings
    }

    func held(by reader: Reader) -> Int { byReader[reader, default: 0] }
    func held(from address: String) -> Int { byAddress[address, default: 0] }

    /// Takes a place for `holder`, or says why not.
    mutating func take(_ holder: Holder) throws(Refusal) {
        guard total < settings.maximumStreams else { throw .full }
        let fromAddress = held(from: holder.address), byReader = held(by: holder.reader)
        guard fromAddress < settings.streamsPerAddress else { throw .addressAtLimit }
        switch holder.reader {
        case .person:
            guard byReader < settings.streamsPerPerson else { throw .personAtLimit }
        case .application:
            guard byReader < settings.streamsPerApplication, applicationStreams < settings.applicationStreams else { throw .applicationAtLimit }
        }
        guard (fromAddress == 0 && byReader == 0) || total < settings.maximumStreams - settings.reservedStreams else { throw .reserved }
        if case .application = holder.reader { applicationStreams += 1 }
        total += 1
        self.byReader[holder.reader] = byReader + 1
        byAddress[holder.address] = fromAddress + 1
    }

    /// Gives back a place `holder` took.
    mutating func release(_ holder: Holder) {
        if case .application = holder.reader { applicationStreams -= 1 }
        total -= 1
        byReader[holder.reader, default: 1] -= 1
        if byReader[holder.reader] == 0 { byReader[holder.reader] = nil }
        byAddress[holder.address, default: 1] -= 1
        if byAddress[holder.address] == 0 { byAddress[holder.address] = nil }
    }

    /// How many addresses hold a stream.
    var addressCount: Int { byAddress.count }
}
