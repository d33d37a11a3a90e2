import Foundation
import Networking
import Testing

/// A value with every kind the reader reads, its `Decodable` conformance synthesized.
private struct Record: JSONReadable, Equatable {
    var text: String
    var count: Int
    var score: Double
    var children: [Child]

    struct Child: JSONReadable, Equatable {
        var label: String

        init(label: String) { self.label = label }

        init(reading reader: inout JSONReader) throws(JSONReader.Declined) {
            var label: String?
            try reader.beginObject()
            while let key = try reader.nextKey() {
                if key == "label", label == nil { label = try reader.readString() } else if key == "label" { throw .init() } else { try reader.skipValue() }
            }
            guard let label else { throw .init() }
            self.label = label
        }
    }

    init(text: String, count: Int, score: Double, children: [Child]) {
        (self.text, self.count, self.score, self.children) = (text, count, score, children)
    }

    init(reading reader: inout JSONReader) throws(JSONReader.Declined) {
        var text: String?, count: Int?, score: Double?, children: [Child]?
        try reader.beginObject()
        while let key = try reader.nextKey() {
            if key == "text", text == nil {
                text = try reader.readString()
            } else if key == "count", count == nil {
                count = try reader.readInt()
            } else if key == "score", score == nil {
                score = try reader.readDouble()
            } else if key == "children", children == nil {
                children = try [Child](reading: &reader)
            } else if key == "text" || key == "count" || key == "score" || key == "children" {
                throw .init()
            } else {
                try reader.skipValue()
            }
        }
        guard let text, let count, let score, let children else { throw .init() }
        self.init(text: text, count: count, score: score, children: children)
    }
}

@Suite("JSON reader")
struct JSONReaderTests {
    private func record(_ json: String) -> Record? {
        JSONReader.read(Record.self, from: Data(json.utf8))
    }

    private func foundation(_ json: String) -> Result<Record, NetworkError> {
        Result { () throws(NetworkError) in try ResponseDecoding.decodeWithFoundation(Record.self, from: Data(json.utf8)) }
    }

    @Test("reads what JSONDecoder reads, to the same value", arguments: [
        #"{"text":"plain","count":3,"score":7.5,"children":[{"label":"a"},{"label":"b"}]}"#,
        " \n\t\r{ \"text\" : \"spaced\" , \"count\" : -42 , \"score\" : -0.25e1 , \"children\" : [ ] } \n",
        #"{"children":[],"score":1E+2,"count":0,"text":""}"#,
        #"{"text":"esc \" \\ \/ \b \f \n \r \t","count":1,"score":0,"children":[]}"#,
        #"{"text":"\u00e9\u4e2d\ud83c\udfac \u0000 \uFFFF","count":1,"score":0.1,"children":[]}"#,
        #"{"text":"raw é中🎬","count":9223372036854775807,"score":123456789012345678901234567890,"children":[]}"#,
        #"{"text":"x","count":-9223372036854775807,"score":4.9406564584124654e-300,"children":[]}"#,
        #"{"extra":{"a":[1,2,{"b":null}],"c":true,"d":false,"e":"\u0041"},"text":"x","count":1,"score":1,"children":[{"label":"c","more":[[[]]]}],"tail":-0.0e-0}"#,
        #"{"text":"x","count":-0,"score":-0,"children":[]}"#,
        #"{"text":"x","count":1,"score":0.1000000000000000055511151231257827,"children":[]}"#,
    ])
    func agreesWithJSONDecoder(json: String) throws {
        let fast = try #require(record(json), "the reader declined \(json)")
        #expect(foundation(json) == .success(fast))
    }

    @Test("decodes escapes and surrogate pairs")
    func decodesEscapes() throws {
        let value = try #require(record(#"{"text":"a\"b\\c\/d\be\ff\ng\rh\ti\u00e9j\ud83c\udfack","count":0,"score":0,"children":[]}"#))
        #expect(value.text == "a\"b\\c/d\u{8}e\u{C}f\ng\rh\ti\u{E9}j\u{1F3AC}k")
    }

    @Test("declines what is not JSON, or not surely read as JSONDecoder would", arguments: [
        "", " ", "[]", "null", #"{"text":"x","count":1,"score":1,"children":[]"#,
        #"{"text":"x","count":1,"score":1,"children":[],}"#,
        #"{"text":"x","count":1,"score":1,"children":[{"label":"a"},]}"#,
        #"{"text":"x","count":1,"score":1,"children":[,{"label":"a"}]}"#,
        #"{,"text":"x","count":1,"score":1,"children":[]}"#,
        #"{"text":"x","count":01,"score":1,"children":[]}"#,
        #"{"text":"x","count":+1,"score":1,"children":[]}"#,
        #"{"text":"x","count":1.0,"score":1,"children":[]}"#,
        #"{"text":"x","count":1e2,"score":1,"children":[]}"#,
        #"{"text":"x","count":9223372036854775808,"score":1,"children":[]}"#,
        #"{"text":"x","count":-9223372036854775808,"score":1,"children":[]}"#,
        #"{"text":"x","count":1,"score":.5,"children":[]}"#,
        #"{"text":"x","count":1,"score":1.,"children":[]}"#,
        #"{"text":"x","count":1,"score":1e,"children":[]}"#,
        #"{"text":"x","count":1,"score":NaN,"children":[]}"#,
        #"{"text":"x","count":1,"score":1e400,"children":[]}"#,
        #"{"text":"x","count":1,"score":1e-400,"children":[]}"#,
        #"{"text":"x","count":1,"score":1x,"children":[]}"#,
        #"{"text":"x","count":1,"score":"1","children":[]}"#,
        #"{"text":1,"count":1,"score":1,"children":[]}"#,
        #"{"text":null,"count":1,"score":1,"children":[]}"#,
        #"{"text":"x","count":1,"score":1}"#,
        #"{"text":"x","text":"y","count":1,"score":1,"children":[]}"#,
        #"{"te\u0078t":"x","count":1,"score":1,"children":[]}"#,
        "{\"text\":\"x\",\"count\":1,\"score\":1,\"children\":[],\"\u{212A}\":1}",
        #"{"text":"\ud83c","count":1,"score":1,"children":[]}"#,
        #"{"text":"\udfac","count":1,"score":1,"children":[]}"#,
        #"{"text":"\x","count":1,"score":1,"children":[]}"#,
        #"{"text":"\u12","count":1,"score":1,"children":[]}"#,
        "{\"text\":\"tab\there\",\"count\":1,\"score\":1,\"children\":[]}",
        #"{"text":'x',"count":1,"score":1,"children":[]}"#,
        #"{"text":"x" "count":1,"score":1,"children":[]}"#,
        #"{"text" "x","count":1,"score":1,"children":[]}"#,
        #"{"text":"x","count":1,"score":1,"children":[]} x"#,
        #"{"text":"x","count":1,"score":1,"children":[]}{}"#,
        #"{"text":"x","count":1,"score":1,"children":[],"e":tru}"#,
        #"{"text":"x","count":1,"score":1,"children":[],"e":nulll}"#,
        #"{"text":"x","count":1,"score":1,"children":[]} // comment"#,
        "\u{FEFF}{\"text\":\"x\",\"count\":1,\"score\":1,\"children\":[]}",
    ])
    func declines(json: String) {
        #expect(record(json) == nil)
    }

    @Test("declines bytes that are not UTF-8, in values and in skipped keys alike")
    func declinesInvalidUTF8() {
        let prefix = Array(#"{"text":"a"#.utf8), suffix = Array(#"","count":1,"score":1,"children":[]}"#.utf8)
        for bad: [UInt8] in [[0xFF], [0xC3], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xC0, 0xAF]] {
            #expect(JSONReader.read(Record.self, from: Data(prefix + bad + suffix)) == nil)
            let skipped = Array(#"{"text":"a","count":1,"score":1,"children":[],"other":""#.utf8) + bad + Array(#""}"#.utf8)
            #expect(JSONReader.read(Record.self, from: Data(skipped)) == nil)
        }
    }

    @Test("a body nested a million deep is declined, not a crash, and JSONDecoder's error is the answer")
    func declinesDeepNesting() {
        let deep = #"{"text":"x","count":1,"score":1,"children":[],"deep":"# + String(repeating: "[", count: 1_000_000) + String(repeating: "]", count: 1_000_000) + "}"
        #expect(record(deep) == nil)
        let shallowEnough = #"{"text":"x","count":1,"score":1,"children":[],"deep":"# + String(repeating: "[", count: 200) + String(repeating: "]", count: 200) + "}"
        #expect(record(shallowEnough) != nil)
        #expect(throws: NetworkError.self) { try ResponseDecoding.decode(Record.self, from: Data(deep.utf8)) }
    }

    @Test("a declined body gets JSONDecoder's value or its error with the JSON path", arguments: [
        #"{"text":"x","count":1.0,"score":1,"children":[]}"#,
        #"{"te\u0078t":"x","count":1,"score":1,"children":[]}"#,
        #"{"text":"x","count":1,"score":1,"children":[{"label":2}]}"#,
        #"{"text":"x","count":1,"score":1,"children":[{}]}"#,
        #"{"text":"x","count":"1","score":1,"children":[]}"#,
        "\u{FEFF}{\"text\":\"x\",\"count\":1,\"score\":1,\"children\":[]}",
        "<html>Not Found</html>",
    ])
    func fallsBack(json: String) {
        let answer = Result { () throws(NetworkError) in try ResponseDecoding.decode(Record.self, from: Data(json.utf8)) }
        #expect(answer == foundation(json))
    }
}
