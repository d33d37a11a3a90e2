@testable import MovieServer
import Testing

/// Which requests with a `traceparent` are traced: by the caller's flag only when it is trusted,
/// else by the instance's ratio, and never more than an address's allowance.
@Suite("Deciding a request's trace")
struct TraceDecisionTests {
    static let ids = "4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7"
    static let sampled = "00-\(ids)-01", unsampled = "00-\(ids)-00"

    static func traced(_ outcome: TraceDecider.Outcome) -> Bool? {
        if case let .decided(_, traced) = outcome { return traced }
        return nil
    }

    @Test("a request without a traceparent is left alone; a malformed or repeated one is dropped")
    func absentOrMalformed() {
        let decider = TraceDecider(sampling: TraceSampling(trustsCallerFlags: true))
        #expect(decider.decide([], party: { "a" }) == .none)
        #expect(decider.decide(["00-zz-01"], party: { "a" }) == .dropped)
        #expect(decider.decide([Self.sampled, Self.sampled], party: { "a" }) == .dropped)
    }

    @Test("trusted, the caller's flag decides, and the header says so")
    func trustedFlag() {
        let decider = TraceDecider(sampling: TraceSampling(trustsCallerFlags: true, ratio: 0))
        #expect(decider.decide([Self.sampled], party: { "a" }) == .decided(Self.sampled, traced: true))
        #expect(decider.decide([Self.unsampled], party: { "a" }) == .decided(Self.unsampled, traced: false))
    }

    @Test("untrusted, the flag means nothing and the ratio decides by the instance's own draw")
    func untrustedFlag() {
        let never = TraceDecider(sampling: TraceSampling(trustsCallerFlags: false, ratio: 0))
        #expect((0..<500).allSatisfy { _ in never.decide([Self.sampled], party: { "a" }) == .decided(Self.unsampled, traced: false) })
        let always = TraceDecider(sampling: TraceSampling(trustsCallerFlags: false, ratio: 1))
        #expect(Self.traced(always.decide([Self.unsampled], party: { "a" })) == true)
        let half = TraceDecider(sampling: TraceSampling(trustsCallerFlags: false, ratio: 0.5), draw: { 0.7 })
        #expect(Self.traced(half.decide([Self.sampled], party: { "a" })) == false)
        let lucky = TraceDecider(sampling: TraceSampling(trustsCallerFlags: false, ratio: 0.5), draw: { 0.2 })
        #expect(Self.traced(lucky.decide([Self.unsampled], party: { "a" })) == true)
    }

    @Test("one address has at most its allowance traced a minute; another address has its own")
    func allowance() {
        let decider = TraceDecider(sampling: TraceSampling(trustsCallerFlags: true, tracesPerMinute: 5))
        let first = (0..<50).filter { _ in Self.traced(decider.decide([Self.sampled], party: { "a" })) == true }
        #expect(first.count == 5)
        #expect(Self.traced(decider.decide([Self.sampled], party: { "b" })) == true)
        #expect(Self.traced(TraceDecider(sampling: TraceSampling(trustsCallerFlags: true, tracesPerMinute: 0)).decide([Self.sampled], party: { "a" })) == false)
    }

    @Test("an allowance refills at its rate, never beyond a minute's")
    func refill() {
        let allowance = TraceAllowance(perMinute: 60)
        let start = ContinuousClock.now
        #expect((0..<60).allSatisfy { _ in allowance.take(for: "a", now: start) })
        #expect(!allowance.take(for: "a", now: start))
        #expect(allowance.take(for: "a", now: start + .seconds(1)))
        #expect(!allowance.take(for: "a", now: start + .seconds(1)))
        let later = start + .seconds(3600)
        #expect((0..<60).allSatisfy { _ in allowance.take(for: "a", now: later) })
        #expect(!allowance.take(for: "a", now: later))
    }

    @Test("a request not traced takes no allowance")
    func untracedIsFree() {
        let decider = TraceDecider(sampling: TraceSampling(trustsCallerFlags: true, tracesPerMinute: 1))
        for _ in 0..<10 { _ = decider.decide([Self.unsampled], party: { "a" }) }
        #expect(Self.traced(decider.decide([Self.sampled], party: { "a" })) == true)
    }
}
