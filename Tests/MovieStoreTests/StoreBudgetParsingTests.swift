@testable import MovieStore
import Testing

@Suite("Store budget: how it is written")
struct StoreBudgetParsingTests {
    @Test("sizes as people write them", arguments: [
        ("52428800", Int64(52_428_800)),
        ("500MB", 500_000_000),
        ("500 mb", 500_000_000),
        ("1.5GB", 1_500_000_000),
        ("1GiB", 1_073_741_824),
        ("1 G", 1_073_741_824),
        ("2m", 2_097_152),
        ("1000kB", 1_000_000),
        ("1TB", 1_000_000_000_000),
        ("  64 MiB ", 67_108_864),
        ("1000000 bytes", 1_000_000),
    ])
    func parses(text: String, bytes: Int64) throws {
        #expect(try StoreBudget(parsing: text).bytes == bytes)
    }

    @Test("unlimited turns eviction off", arguments: ["unlimited", "None", "UNLIMITED"])
    func unlimited(text: String) throws {
        #expect(try StoreBudget(parsing: text) == .unlimited)
        #expect(StoreBudget.unlimited.bytes == nil)
    }

    @Test("what is not a budget is refused, saying what is accepted", arguments: [
        ("", StoreBudgetError.Reason.notASize),
        ("lots", .notASize),
        ("-5MB", .notASize),
        ("1e9", .unknownUnit("e9")),
        ("10 parsecs", .unknownUnit("parsecs")),
        ("500kB", .tooSmall),
        ("999999", .tooSmall),
        ("99999999 TB", .tooLarge),
    ])
    func refuses(text: String, reason: StoreBudgetError.Reason) {
        #expect(throws: StoreBudgetError(text: text, reason: reason)) { try StoreBudget(parsing: text) }
        let message = StoreBudgetError(text: text, reason: reason).description
        #expect(message.contains("'\(text)'"))
        #expect(reason == .tooSmall || reason == .tooLarge || message.contains("500MB, 1GiB"))
    }

    @Test("shown with its unit and its bytes")
    func described() throws {
        #expect(StoreBudget.appDefault.description == "500 MB (500,000,000 bytes)")
        #expect(try StoreBudget(parsing: "1GiB").description == "1 GiB (1,073,741,824 bytes)")
        #expect(StoreBudget.approximate(47_600_000) == "47.6 MB")
        #expect(StoreBudget.unlimited.description == "unlimited")
    }
}
