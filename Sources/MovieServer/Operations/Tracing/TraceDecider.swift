/// Decides, once per request and on the event loop, whether a request that carries a
/// `traceparent` is traced (``TraceSampling``), and writes the decision into the header, which the
/// router's span then follows: a parent-based sampler records exactly the requests decided traced.
struct TraceDecider: Sendable {
    /// What becomes of a request's `traceparent`.
    enum Outcome: Equatable {
        /// It carries none: nothing changes.
        case none
        /// Malformed, or given more than once: removed with its `tracestate`, as if never sent.
        case dropped
        /// Well formed: replaced by this value, whose sampled flag is the decision.
        case decided(String, traced: Bool)
    }

    let sampling: TraceSampling
    let allowance: TraceAllowance
    /// The draw against the ratio, from 0 up to 1.
    let draw: @Sendable () -> Double

    init(sampling: TraceSampling, draw: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }) {
        self.sampling = sampling
        allowance = TraceAllowance(perMinute: sampling.tracesPerMinute)
        self.draw = draw
    }

    /// The outcome for a request whose `traceparent` lines are `values`, from the client `party`
    /// (read only when the request asks to be traced).
    func decide(_ values: [String], party: () -> String) -> Outcome {
        guard let value = values.first else { return .none }
        guard values.count == 1, let parent = TraceParent(value) else { return .dropped }
        let asked = sampling.trustsCallerFlags ? parent.isSampled : sampling.ratio > 0 && (sampling.ratio >= 1 || draw() < sampling.ratio)
        let traced = asked && allowance.take(for: party())
        return .decided(parent.deciding(sampled: traced), traced: traced)
    }
}
