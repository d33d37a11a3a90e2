@testable import MovieServer
import Testing

/// A `traceparent` read as W3C Trace Context writes it, and nothing else.
@Suite("Reading a traceparent")
struct TraceParentTests {
    static let trace = "4bf92f3577b34da6a3ce929d0e0e4736", parent = "00f067aa0ba902b7"

    @Test("a version 00 value gives its ids and flags")
    func wellFormed() throws {
        let sampled = try #require(TraceParent("00-\(Self.trace)-\(Self.parent)-01"))
        #expect(sampled.traceID == Self.trace && sampled.parentID == Self.parent && sampled.isSampled)
        #expect(TraceParent("00-\(Self.trace)-\(Self.parent)-00")?.isSampled == false)
        #expect(TraceParent("00-\(Self.trace)-\(Self.parent)-03")?.isSampled == true)
        #expect(TraceParent("00-\(Self.trace)-\(Self.parent)-02")?.isSampled == false)
    }

    @Test("a later version is read by its first four parts")
    func laterVersion() {
        #expect(TraceParent("01-\(Self.trace)-\(Self.parent)-01")?.isSampled == true)
        #expect(TraceParent("cc-\(Self.trace)-\(Self.parent)-01-what-comes-next") != nil)
        #expect(TraceParent("cc-\(Self.trace)-\(Self.parent)-01x") == nil)
    }

    @Test("anything else is no traceparent", arguments: [
        "", "00", "01", "garbage",
        "00-\(trace)-\(parent)-01-",
        "00-\(trace)-\(parent)-1",
        "00-\(trace)-\(parent)-001",
        "ff-\(trace)-\(parent)-01",
        "00-\(trace.uppercased())-\(parent)-01",
        "00-\(trace)-\(parent.uppercased())-01",
        "00-\(trace)-\(parent)-0A",
        "0-0\(trace)-\(parent)-01",
        "00-\(String(repeating: "0", count: 32))-\(parent)-01",
        "00-\(trace)-\(String(repeating: "0", count: 16))-01",
        "00-\(trace.dropLast())g-\(parent)-01",
        "00-\(trace)-\(parent.dropLast())g-01",
        "00_\(trace)-\(parent)-01",
        "00-\(trace)_\(parent)-01",
        "00-\(trace)-\(parent)_01",
        " 00-\(trace)-\(parent)-01",
        "00-\(trace)-\(parent)-0é",
        "00-\(String(repeating: "z", count: 100))-01",
    ])
    func malformed(_ value: String) {
        #expect(TraceParent(value) == nil)
    }

    @Test("the decision is written as version 00 with the sampled flag alone")
    func decided() throws {
        let parent = try #require(TraceParent("cc-\(Self.trace)-\(Self.parent)-03-more"))
        #expect(parent.deciding(sampled: false) == "00-\(Self.trace)-\(Self.parent)-00")
        #expect(parent.deciding(sampled: true) == "00-\(Self.trace)-\(Self.parent)-01")
    }
}
