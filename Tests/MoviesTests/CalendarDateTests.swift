import Foundation
import MovieContract
import Movies
import Testing

@Suite("CalendarDate")
struct CalendarDateTests {
    @Test("a yyyy-MM-dd day is midnight UTC of that day")
    func parsesMidnightUTC() throws {
        let date = try #require(CalendarDate.date(from: "2016-06-17"))
        #expect(date == Date(timeIntervalSince1970: 1_466_121_600))
    }

    @Test("formatting gives back the same text", arguments: ["2016-06-17", "2016-02-29", "1999-12-31", "0001-01-01"])
    func roundTrips(text: String) throws {
        let date = try #require(CalendarDate.date(from: text))
        #expect(CalendarDate.string(from: date) == text)
    }

    @Test(
        "text that is not a real yyyy-MM-dd day is rejected",
        arguments: ["2016-02-30", "2015-02-29", "2016-13-01", "2016-00-10", "2016-6-17", "16-06-17", "2016/06/17",
                    "2016-06-17T00:00:00Z", "abcd-ef-gh", "", "２０１６-06-17"]
    )
    func rejectsInvalidDays(text: String) {
        #expect(CalendarDate.date(from: text) == nil)
    }

    @Test("the day does not depend on the time of day")
    func formatsTheUTCDayOfAnyInstant() {
        let lateEvening = Date(timeIntervalSince1970: 1_466_121_600 + 86_399)
        #expect(CalendarDate.string(from: lateEvening) == "2016-06-17")
    }
}

@Suite("CalendarDate against Foundation's calendar")
struct CalendarDateAgreementTests {
    @Test("every day from 1900 to 2100 reads and prints as Foundation's Gregorian UTC calendar has it")
    func agreesWithFoundation() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        var day = try #require(calendar.date(from: DateComponents(year: 1900, month: 1, day: 1)))
        let end = try #require(calendar.date(from: DateComponents(year: 2100, month: 12, day: 31)))
        while day <= end {
            let parts = calendar.dateComponents([.year, .month, .day], from: day)
            let text = String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
            #expect(CalendarDate.string(from: day) == text)
            #expect(CalendarDate.date(from: text) == day)
            day = day.addingTimeInterval(86_400)
        }
    }
}
