import Foundation
import Testing
@testable import HTTP1

/// `HTTPRequest` cuts `path` and `rawQuery` from the target and decodes `queryItems` only when
/// asked; these must read exactly what the eager split (the target cut at its first `?`, the
/// query decoded at once) read, for every request of the parser's test corpora and for targets
/// built by hand.
@Suite struct LazyRequestFieldsTests {
    /// What the request fields were when they were computed eagerly from the routed target.
    static func eager(_ routed: String) -> (path: String, query: String, items: [QueryItem]) {
        let parts = routed.utf8.split(separator: UInt8(ascii: "?"), maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(decoding: parts[0], as: UTF8.self)
        let query = parts.count > 1 ? String(decoding: parts[1], as: UTF8.self) : ""
        return (path, query, QueryString.decode(query))
    }

    /// The `path[?query]` a parsed request routes by: its target, or the path and query of an
    /// absolute-form target.
    static func routed(_ target: String) -> String {
        let bytes = Array(target.utf8)
        guard bytes.first != UInt8(ascii: "/"), bytes != [UInt8(ascii: "*")],
              let schemeEnd = target.utf8.firstRange(of: "://".utf8) else { return target }
        let rest = target.utf8[schemeEnd.upperBound...]
        guard let start = rest.firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") }) else { return "/" }
        let tail = String(decoding: target.utf8[start...], as: UTF8.self)
        return tail.utf8.first == UInt8(ascii: "?") ? "/" + tail : tail
    }

    static func expectEager(_ request: HTTPRequest, routed: String, _ comment: String) {
        let expected = eager(routed)
        #expect(request.path == expected.path, Comment(rawValue: comment))
        #expect(request.rawQuery == expected.query, Comment(rawValue: comment))
        #expect(request.queryItems == expected.items, Comment(rawValue: comment))
        for item in expected.items {
            #expect(request.query(item.name) == expected.items.first { $0.name.utf8.elementsEqual(item.name.utf8) }?.value,
                    Comment(rawValue: comment))
        }
    }

    /// Every request the parser produces from the split-test cases and the fuzz seeds.
    static func corpusRequests() -> [(HTTPRequest, String)] {
        var inputs = RequestParserSplitTests.cases.map { ($0.bytes, $0.name) }
        let seeds = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Fuzz/corpus/parser").standardizedFileURL
        let names = (try? FileManager.default.contentsOfDirectory(atPath: seeds.path)) ?? []
        for name in names.sorted() {
            if let data = FileManager.default.contents(atPath: seeds.appendingPathComponent(name).path) {
                inputs.append((Array(data), "seed \(name)"))
            }
        }
        var requests: [(HTTPRequest, String)] = []
        for (bytes, name) in inputs {
            var parser = RequestParser()
            parser.append(bytes)
            loop: while true {
                switch parser.next() {
                case let .request(request, _): requests.append((request, name))
                case .expectContinue: continue
                case .needMore, .error: break loop
                }
            }
        }
        return requests
    }

    @Test func parsedRequestsReadWhatTheEagerSplitRead() {
        let requests = Self.corpusRequests()
        #expect(requests.count >= 15, "the corpora hold requests")
        for (request, name) in requests {
            Self.expectEager(request, routed: Self.routed(request.target), "\(name): \(request.target)")
        }
    }

    @Test func targetsBuiltByHand() {
        let targets = ["/", "/v1/rates", "/a?b=c&d", "/a?", "/p?q?r=1", "?x=1", "", "/%41?%41=%42+c",
                       "/a?&&b=&=c", "/é?ü=ö", "*"]
        for target in targets {
            Self.expectEager(HTTPRequest(method: "GET", target: target), routed: target, target)
        }
    }

    @Test func anAbsoluteFormTargetRoutesByItsPathAndQuery() throws {
        var parser = RequestParser()
        parser.append("GET http://h:1/p?q=1 HTTP/1.1\nHost: y\n\n".crlf)
        guard case let .request(request, _) = parser.next() else { Issue.record("no request"); return }
        #expect(request.target == "http://h:1/p?q=1")
        #expect(request.path == "/p")
        #expect(request.rawQuery == "q=1")
        #expect(request.query("q") == "1")
    }

    @Test func commonTokensAreTheDecodedText() {
        var parser = RequestParser()
        parser.append("GET / HTTP/1.1\nHost: x\nuser-agent: a\nX-REQUEST-ID: r\nAccept-Encoding: gzip\n\n".crlf)
        guard case let .request(request, _) = parser.next() else { Issue.record("no request"); return }
        #expect(request.method == "GET")
        #expect(request.headers.fields.map(\.name) == ["Host", "user-agent", "X-REQUEST-ID", "Accept-Encoding"])
        #expect(request.isHead == false)
        #expect(HTTPRequest(method: "HEAD", target: "/").isHead)
        #expect(!HTTPRequest(method: "head", target: "/").isHead)
    }
    /// `query(_:)` finds a parameter without decoding every item: it must answer what the first
    /// match among all decoded items says, for names present, absent, repeated, valueless,
    /// escaped, `+`-spaced and written with a Unicode look-alike.
    @Test func queryAnswersTheFirstMatchOfTheDecodedItems() {
        let targets = ["/v1/rates", "/v1/rates?", "/v1/rates?base=EUR&symbols=USD,GBP", "/x?a=1&a=2", "/x?&&a&b=",
                       "/x?b%61se=%45UR&base=no", "/x?sym+bols=a+b&symbols=c", "/x?%ZZ=1&%zz=2", "/x?\u{212A}=1&K=2",
                       "/x?date=2024-01-01&date", "/x?=empty&base"]
        let names = ["base", "symbols", "a", "b", "sym bols", "%ZZ", "K", "\u{212A}", "date", "", "missing"]
        for target in targets {
            let request = HTTPRequest(method: "GET", target: target)
            for name in names {
                let expected = request.queryItems.first { $0.name.utf8.elementsEqual(name.utf8) }?.value
                #expect(request.query(name) == expected, "\(target) \(name)")
            }
        }
    }
}

