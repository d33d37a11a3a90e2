import Movies
import Testing

/// What a status line says of the live feed: a reconnection names the wait it waits and why.
@Suite("Live status")
struct LiveStatusTests {
    @Test("reconnecting says the wait, as precisely as it is waited, and the reason", arguments: [
        (Duration.milliseconds(1_400), "reconnecting in 1.4 s: the server sent a line over 64 KiB"),
        (.seconds(1), "reconnecting in 1 s: the server sent a line over 64 KiB"),
        (.seconds(45), "reconnecting in 45 s: the server sent a line over 64 KiB"),
        (.milliseconds(30), "reconnecting in 30 ms: the server sent a line over 64 KiB"),
    ])
    func reconnecting(delay: Duration, shown: String) {
        #expect(LiveStatus.reconnecting(after: delay, reason: "the server sent a line over 64 KiB").description == shown)
    }

    @Test("the other states")
    func others() {
        #expect(LiveStatus.live.description == "live")
        #expect(LiveStatus.connecting.description == "connecting")
        #expect(LiveStatus.off("this server has no live feed").description == "not live: this server has no live feed")
    }
}
