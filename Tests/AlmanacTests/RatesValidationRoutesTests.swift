import HTTP1
import Rates
import Testing
@testable import Almanac

/// 400 for malformed input (before any upstream call), 404 for unknown codes; problem+json
/// with a detail naming the input and `Cache-Control: no-store`.
@Suite struct RatesValidationRoutesTests {
    struct Case: Sendable, CustomStringConvertible {
        var target: String
        var status: Int
        var slug: String
        var detailContains: String
        var description: String { target }
    }

    static let malformed: [Case] = [
        Case(target: "/v1/rates?base=EURO", status: 400, slug: "invalid-currency-code", detailContains: "base \"EURO\""),
        Case(target: "/v1/rates?symbols=USD,12", status: 400, slug: "invalid-currency-code", detailContains: "\"12\""),
        Case(target: "/v1/rates/U%24D", status: 400, slug: "invalid-currency-code", detailContains: "\"U$D\""),
        Case(target: "/v1/convert?to=USD", status: 400, slug: "missing-parameter", detailContains: "from"),
        Case(target: "/v1/convert?from=EUR&to=USD&amount=-3", status: 400, slug: "invalid-amount", detailContains: "negative"),
        Case(target: "/v1/convert?from=EUR&to=USD&amount=abc", status: 400, slug: "invalid-amount", detailContains: "\"abc\""),
        Case(target: "/v1/convert?from=EUR&to=USD&amount=1e9", status: 400, slug: "invalid-amount", detailContains: "plain decimal"),
        Case(target: "/v1/convert?from=EUR&to=USD&amount=" + String(repeating: "1", count: 40), status: 400, slug: "invalid-amount", detailContains: "longer than 32"),
    ]

    @Test(arguments: malformed)
    func malformedInputIs400WithoutUpstream(_ c: Case) async throws {
        let h = RatesHarness()
        let (r, ready) = await h.get(c.target)
        #expect(ready)
        #expect(r.status.code == c.status)
        #expect(r.headers["Content-Type"] == "application/problem+json")
        #expect(r.headers["Cache-Control"] == "no-store")
        let json = try #require(r.ratesJSON)
        #expect(json["type"] == .string(ProblemTypes.almanac.type(of: c.slug)))
        guard case let .string(detail)? = json["detail"] else { Issue.record("no detail"); return }
        #expect(detail.contains(c.detailContains), "\(detail)")
        #expect(h.upstreamCalls == 0)
    }

    static let unknown: [String] = ["/v1/rates?base=XYZ", "/v1/rates?symbols=USD,XYZ", "/v1/rates/xyz",
                                    "/v1/convert?from=XYZ&to=USD", "/v1/rates/USD?base=XYZ"]

    @Test(arguments: unknown)
    func unknownCodeIs404NamingIt(_ target: String) async throws {
        let h = RatesHarness()
        let r = await h.get(target).response
        #expect(r.status == .notFound)
        #expect(r.headers["Cache-Control"] == "no-store")
        let json = try #require(r.ratesJSON)
        #expect(json["type"] == .string(ProblemTypes.almanac.type(of: "unknown-currency")))
        guard case let .string(detail)? = json["detail"] else { Issue.record("no detail"); return }
        #expect(detail.contains("XYZ"))
    }

    @Test func unknownCodeOnAHitIsStillReady() async {
        let h = RatesHarness()
        _ = await h.get("/v1/rates")
        let (r, ready) = await h.get("/v1/rates/XYZ")
        #expect(ready)
        #expect(r.status == .notFound)
    }
}
