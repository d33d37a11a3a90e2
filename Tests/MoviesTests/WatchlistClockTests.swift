import Foundation
import MovieContract
import Movies
import Testing

@Suite("Watchlist times")
struct WatchlistClockTests {
    @Test("every millisecond of three seconds round-trips exactly, so changes a millisecond apart never tie")
    func roundTrip() {
        for milliseconds in Int64(1_795_000_000_000)..<1_795_000_003_000 {
            let text = WatchlistClock.string(milliseconds)
            #expect(WatchlistClock.milliseconds(text) == milliseconds, "\(milliseconds) → \(text)")
        }
    }

    @Test("times written by hand are Foundation's ISO 8601 text with the milliseconds, across the whole range the wire carries")
    func writtenAsFoundationWould() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let span = UInt64(WatchlistClock.latest - WatchlistClock.earliest)
        for _ in 0..<5_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let milliseconds = WatchlistClock.earliest + Int64(state % span)
            let text = WatchlistClock.string(milliseconds)
            let seconds = Date(timeIntervalSince1970: Double(milliseconds.quotientAndRemainder(dividingBy: 1000).quotient)).formatted(Date.ISO8601FormatStyle())
            #expect(text == seconds.dropLast() + "." + String(format: "%03d", milliseconds % 1000) + "Z", "\(milliseconds)")
            #expect(WatchlistClock.milliseconds(text) == milliseconds)
        }
    }

    @Test("the wire form is RFC 3339 in UTC with three digits of milliseconds; other offsets and no fraction are read")
    func wireForm() {
        #expect(WatchlistClock.string(1_795_000_000_001) == "2026-11-18T11:06:40.001Z")
        #expect(WatchlistClock.string(1_795_000_000_000) == "2026-11-18T11:06:40.000Z")
        #expect(WatchlistClock.milliseconds("2026-11-18T11:06:40Z") == 1_795_000_000_000)
        #expect(WatchlistClock.milliseconds("2026-11-18T12:06:40.5+01:00") == 1_795_000_000_500)
        #expect(WatchlistClock.milliseconds("1999-12-31T23:59:59Z") == nil)
        #expect(WatchlistClock.milliseconds("yesterday") == nil)
        for invalid in [
            "2024-01-01T12:99:00Z", "2024-02-30T00:00:00Z", "2023-02-29T00:00:00Z", "2024-13-01T00:00:00Z",
            "2024-01-01T24:00:00Z", "2024-01-01T00:00:61Z", "2024-01-01T00:00:00+25:00", "2024-1-01T00:00:00Z", "2024-01-01 00:00:00Z",
        ] {
            #expect(WatchlistClock.milliseconds(invalid) == nil, "\(invalid) is refused, not rolled over")
        }
        #expect(WatchlistClock.milliseconds("2024-02-29T23:59:59.999Z") != nil)
    }

    @Test("RFC 3339's whole range of offsets is read, to ±23:59")
    func extremeOffsets() {
        let base: Int64 = 1_795_000_000_000
        let almostADay: Int64 = (23 * 60 + 59) * 60_000
        #expect(WatchlistClock.milliseconds("2026-11-18T11:06:40.000-23:59") == base + almostADay)
        #expect(WatchlistClock.milliseconds("2026-11-18T11:06:40.000+23:59") == base - almostADay)
        #expect(WatchlistClock.milliseconds("2026-11-18T11:06:40.000-00:00") == 1_795_000_000_000)
    }

    @Test("a leap second (:60) is read as the last millisecond of its minute, so it sorts after :59 and before the next minute")
    func leapSecond() throws {
        let leap = try #require(WatchlistClock.milliseconds("2016-12-31T23:59:60Z"))
        #expect(WatchlistClock.milliseconds("2016-12-31T23:59:59.999Z") == leap)
        #expect(WatchlistClock.milliseconds("2016-12-31T23:59:60.5Z") == leap)
        #expect(try #require(WatchlistClock.milliseconds("2016-12-31T23:59:59.500Z")) < leap)
        #expect(leap < (try #require(WatchlistClock.milliseconds("2017-01-01T00:00:00Z"))))
        #expect(WatchlistClock.milliseconds("2016-12-31T18:59:60-05:00") == leap)
        #expect(WatchlistClock.milliseconds("2016-12-31T23:59:61Z") == nil)
    }

    @Test("the last millisecond of 9999 is read; the wire carries it", arguments: ["9999-12-31T23:59:59Z", "9999-12-31T23:59:59.999Z"])
    func endOfTime(text: String) throws {
        let milliseconds = try #require(WatchlistClock.milliseconds(text))
        #expect(milliseconds <= WatchlistClock.latest)
        #expect(WatchlistClock.milliseconds(WatchlistClock.string(milliseconds)) == milliseconds)
    }
}
