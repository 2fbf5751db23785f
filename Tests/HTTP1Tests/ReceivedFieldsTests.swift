import Foundation
import Testing
@testable import HTTP1

/// A parsed request keeps its fields as bytes (`ReceivedFields`) and makes `String`s only when
/// asked: every way of reading them must answer what the eagerly built fields answered (names
/// and values decoded from the field lines, OWS trimmed, obs-text decoded with replacement), for
/// the parser's corpora and for heads written to probe the lookups, whole and byte by byte.
@Suite struct ReceivedFieldsTests {
    /// The fields of the first head in `bytes`, cut by hand: lines up to the empty one, each
    /// split at its first colon, the value trimmed of SP/HTAB (the reference the eager parser was).
    static func eagerFields(_ bytes: [UInt8]) -> [HTTPHeaders.Field] {
        var lines: [ArraySlice<UInt8>] = []
        var start = 0
        var i = 0
        while i + 1 < bytes.count {
            if bytes[i] == 0x0D && bytes[i + 1] == 0x0A {
                lines.append(bytes[start..<i])
                start = i + 2
                i += 2
            } else {
                i += 1
            }
        }
        guard let requestLine = lines.firstIndex(where: { !$0.isEmpty }) else { return [] }
        var fields: [HTTPHeaders.Field] = []
        for line in lines[(requestLine + 1)...] {
            if line.isEmpty { break }
            guard let colon = line.firstIndex(of: 0x3A) else { break }
            var value = line[(colon + 1)...]
            while let first = value.first, first == 0x20 || first == 0x09 { value = value.dropFirst() }
            while let last = value.last, last == 0x20 || last == 0x09 { value = value.dropLast() }
            fields.append(HTTPHeaders.Field(name: String(decoding: line[..<colon], as: UTF8.self),
                                            value: String(decoding: value, as: UTF8.self)))
        }
        return fields
    }

    /// Spellings of `name` a handler might look it up by.
    static func spellings(_ name: String) -> [String] {
        [name, name.lowercased(), name.uppercased(), String(name.dropLast()), name + "x"]
    }

    /// Every read of `headers` against the reference `fields`.
    static func expectSame(_ headers: HTTPHeaders, _ fields: [HTTPHeaders.Field], _ comment: String) {
        let c = Comment(rawValue: comment)
        #expect(headers.fields == fields, c)
        #expect(headers.count == fields.count, c)
        #expect(headers.map { $0 } == fields, c)
        #expect(headers == HTTPHeaders(fields: fields), c)
        #expect(headers.ownFields == fields, c)
        var names = fields.flatMap { spellings($0.name) }
        names += ["Absent", "", "\u{212A}"]
        for name in names {
            let matching = fields.filter { $0.name.equalsIgnoringASCIICase(name) }.map(\.value)
            #expect(headers[name] == matching.first, Comment(rawValue: "\(comment) [\(name)]"))
            #expect(headers.values(for: name) == matching, Comment(rawValue: "\(comment) values(for: \(name))"))
            #expect(headers.contains(name) == !matching.isEmpty, Comment(rawValue: "\(comment) contains \(name)"))
        }
    }

    static let heads: [(String, [UInt8])] = [
        ("rates hit", "GET /v1/rates HTTP/1.1\nHost: 127.0.0.1\nUser-Agent: profile-hit\n\n".crlf),
        ("repeated and cased", "GET / HTTP/1.1\nHost: x\nX-B: 1\nx-b: 2\nX-C:3\nACCEPT-encoding:  gzip , br \t\nx-B:\n\n".crlf),
        ("empty and spaced values", "GET / HTTP/1.1\nHost:\nA: \t \nB:\t\tv  w\t\n\n".crlf),
        ("obs-text", Array("GET / HTTP/1.1\r\nHost: x\r\nName: caf\u{E9} \u{FF}\r\nRaw: ".utf8)
            + [0xC3, 0x28, 0xFF, 0x80] + Array("\r\nAfter: \u{80}b\r\n\r\n".utf8)),
        ("many fields", ("GET / HTTP/1.1\nHost: x\n" + (0..<40).map { "F\($0): v\($0)\n" }.joined() + "\n").crlf),
        ("long values", ("GET / HTTP/1.1\nHost: x\nLong: " + String(repeating: "0123456789", count: 200) + "\nAfter: y\n\n").crlf),
        ("no fields", "GET / HTTP/1.0\n\n".crlf),
    ]

    @Test func corpusAndProbeHeadsReadAsTheEagerFields() {
        var inputs = Self.heads
        inputs += RequestParserSplitTests.cases.map { ($0.name, $0.bytes) }
        let seeds = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Fuzz/corpus/parser").standardizedFileURL
        for name in ((try? FileManager.default.contentsOfDirectory(atPath: seeds.path)) ?? []).sorted() {
            if let data = FileManager.default.contents(atPath: seeds.appendingPathComponent(name).path) {
                inputs.append(("seed \(name)", Array(data)))
            }
        }
        var checked = 0
        for (name, bytes) in inputs {
            for (how, chunks) in [("whole", [bytes]), ("byte by byte", bytes.map { [$0] })] {
                var parser = RequestParser()
                var first: HTTPRequest?
                feeding: for chunk in chunks {
                    parser.append(chunk)
                    reading: while true {
                        switch parser.next() {
                        case let .request(request, _): first = request; break feeding
                        case .error: break feeding
                        case .needMore: break reading
                        case .expectContinue: continue reading
                        }
                    }
                }
                guard let request = first else { continue }
                // An absolute-form target's authority replaces Host (set: dissolved into own fields).
                var expected = Self.eagerFields(bytes)
                if request.target.utf8.first != UInt8(ascii: "/") && request.target != "*" {
                    expected.removeAll { $0.name.equalsIgnoringASCIICase("Host") }
                    expected.append(HTTPHeaders.Field(name: "Host", value: request.headers["Host"] ?? "?"))
                }
                Self.expectSame(request.headers, expected, "\(name), \(how)")
                checked += 1
            }
        }
        #expect(checked >= 30, "the corpora hold requests")
    }

    /// `ParseBytes.string` (written in place, small strings without a validation loop) must be
    /// `String(decoding:as:)`: ASCII, valid and invalid UTF-8, short (small strings) and long.
    @Test func bytesBecomeTheDecodedString() {
        let pieces: [[UInt8]] = [Array("a".utf8), Array("/v1/rates?x=1".utf8), Array("caf\u{E9}".utf8), [0xC3, 0x28],
                                 [0xFF], [0x80, 0x80], [0xE2, 0x82], Array("\u{1F600}".utf8), [0x09, 0x20]]
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...6, using: &rng) { bytes += pieces.randomElement(using: &rng) ?? [] }
            let start = bytes.isEmpty ? 0 : Int.random(in: 0...bytes.count, using: &rng)
            let made = bytes.withUnsafeBufferPointer { ParseBytes($0, start, bytes.count).string }
            #expect(made == String(decoding: bytes[start...], as: UTF8.self), "\(bytes[start...])")
            #expect(made.utf8.elementsEqual(String(decoding: bytes[start...], as: UTF8.self).utf8), "\(bytes[start...])")
        }
    }

    @Test func changesDissolveTheReceivedBlockInOrder() {
        var parser = RequestParser()
        parser.append("GET / HTTP/1.1\nHost: x\nA: 1\nB: 2\na: 3\n\n".crlf)
        guard case let .request(request, _) = parser.next() else { Issue.record("no request"); return }
        var headers = request.headers
        headers.add("C", "4")
        #expect(headers.fields.map { "\($0.name)=\($0.value)" } == ["Host=x", "A=1", "B=2", "a=3", "C=4"])
        headers.remove("b")
        #expect(headers.fields.map { "\($0.name)=\($0.value)" } == ["Host=x", "A=1", "a=3", "C=4"])
        headers.set("a", "5")
        #expect(headers.fields.map { "\($0.name)=\($0.value)" } == ["Host=x", "C=4", "a=5"])
        // The request's own copy is unchanged.
        #expect(request.headers.values(for: "A") == ["1", "3"])
        var untouched = request.headers
        untouched.remove("Absent")
        #expect(untouched == request.headers)
    }

    @Test func theNextRequestOnTheConnectionDoesNotChangeAnEarlierOnesFields() {
        var parser = RequestParser()
        parser.append("GET /1 HTTP/1.1\nHost: first\nX: one\n\n".crlf)
        guard case let .request(first, _) = parser.next() else { Issue.record("no request"); return }
        parser.append("GET /2 HTTP/1.1\nHost: other\nX: two\n\n".crlf)
        guard case let .request(second, _) = parser.next() else { Issue.record("no request"); return }
        #expect(first.headers["Host"] == "first" && first.headers["X"] == "one")
        #expect(second.headers["Host"] == "other" && second.headers["X"] == "two")
    }
}
