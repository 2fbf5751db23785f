import TestSupport
import Foundation
import Gzip
import HTTPClientTestSupport
import HTTP1
import Web
import Testing
@testable import Almanac

/// gzip content coding: the codec, `Accept-Encoding` negotiation, the once-per-representation
/// twins, and the full stack over sockets (`/v1/rates` is about 5 KB of JSON).
@Suite struct CompressionTests {
    @Test func gzipRoundTripsAndRefusesBombs() throws {
        let text = Array(String(repeating: "{\"USD\":91234.56,\"EUR\":84000.12},", count: 200).utf8)
        let packed = try Gzip.compress(text)
        #expect(packed.count < text.count / 10)
        #expect(Array(packed.prefix(2)) == [0x1F, 0x8B], "a gzip member, not a zlib stream")
        #expect(try Gzip.decompress(packed, limit: text.count) == text)
        #expect(throws: Gzip.Failure.self) { try Gzip.decompress(packed, limit: text.count - 1) }
        #expect(throws: Gzip.Failure.self) { try Gzip.decompress(Array(packed.dropLast(9)), limit: 1 << 20) }
        #expect(throws: Gzip.Failure.self) { try Gzip.decompress(Array("not gzip".utf8), limit: 1 << 20) }
        #expect(try Gzip.decompress(try Gzip.compress([]), limit: 0) == [])
    }

    @Test func acceptEncodingFollowsWeights() {
        #expect(AcceptEncoding.allowsGzip(["gzip"]))
        #expect(AcceptEncoding.allowsGzip(["deflate, GZIP;q=0.5"]))
        #expect(AcceptEncoding.allowsGzip(["br", "x-gzip"]), "several fields combine")
        #expect(AcceptEncoding.allowsGzip(["*"]))
        #expect(AcceptEncoding.allowsGzip(["gzip ; q=1.000"]))
        #expect(!AcceptEncoding.allowsGzip([]), "no field: identity")
        #expect(!AcceptEncoding.allowsGzip(["identity"]))
        #expect(!AcceptEncoding.allowsGzip(["gzip;q=0"]))
        #expect(!AcceptEncoding.allowsGzip(["gzip;q=0.000, *"]), "an explicit refusal beats the wildcard")
        #expect(!AcceptEncoding.allowsGzip(["*;q=0"]))
        #expect(!AcceptEncoding.allowsGzip(["gzipx, xgzip, g\u{301}zip"]))
        #expect(!AcceptEncoding.allowsGzip([",,;;=,q=1"]), "malformed parts are skipped")
    }

    @Test func twinsAreMadeOnceAndBounded() throws {
        let variants = GzipVariants(maxBytes: 4096)
        let body = Array(String(repeating: "almanac ", count: 400).utf8)
        let first = try #require(variants.variant(of: body, etag: "\"v1\""))
        #expect(first.etag == "\"v1-gzip\"")
        #expect(try Gzip.decompress(first.body, limit: body.count) == body)
        for _ in 0..<50 { _ = variants.variant(of: body, etag: "\"v1\"") }
        #expect(variants.compressionCount == 1, "hits compress nothing")
        // Incompressible bodies fill the bound; the oldest twins go first.
        var generator = SystemRandomNumberGenerator()
        for i in 0..<8 {
            let noise = (0..<1500).map { _ in UInt8.random(in: 0...255, using: &generator) }
            _ = variants.variant(of: noise, etag: "\"noise\(i)\"")
        }
        #expect(variants.storedBytes <= 4096)
        _ = variants.variant(of: body, etag: "\"v1\"")
        #expect(variants.compressionCount == 10, "the evicted twin is made again on demand")
        #expect(GzipVariants.applies(contentType: "application/json", count: 1024))
        #expect(!GzipVariants.applies(contentType: "application/json", count: 1023))
        #expect(!GzipVariants.applies(contentType: "image/jpeg", count: 1 << 20))
    }

    /// A coinbase table with 40 currencies, as the real one has (about 5 KB rendered).
    static func scriptLargeTable(_ stub: StubUpstream) {
        FullStackFixtures.scriptAll(stub)
        let codes = ["USD", "EUR", "GBP", "JPY", "CHF", "CAD", "AUD", "NZD", "SEK", "NOK", "DKK", "PLN",
                     "CZK", "HUF", "RON", "BGN", "TRY", "ILS", "ZAR", "MXN", "BRL", "ARS", "CLP", "COP",
                     "PEN", "INR", "IDR", "MYR", "PHP", "SGD", "THB", "KRW", "CNY", "HKD", "TWD", "VND",
                     "AED", "SAR", "QAR", "KWD"]
        let rates = codes.enumerated().map { "\"\($1)\":\"\(1000 + $0 * 37).25\"" }.joined(separator: ",")
        let body = #"{"data":{"currency":"BTC","rates":{"# + rates + "}}}"
        stub.route(FullStackFixtures.coinbasePath) { _ in .json(body) }
    }

    @Test func ratesOverTheWireInBothCodings() async throws {
        try await FullStack.run(script: CompressionTests.scriptLargeTable) { stack in
            let plain = try await stack.get("/v1/rates")
            #expect(plain.status == 200)
            #expect(plain.header("Content-Encoding") == nil)
            #expect(plain.header("Vary") == "Accept-Encoding")
            #expect(plain.body.count >= 1024)
            let plainTag = try #require(plain.header("ETag"))

            let zipped = try await stack.get("/v1/rates", headers: ["Accept-Encoding: gzip, deflate, br"])
            #expect(zipped.status == 200)
            #expect(zipped.header("Content-Encoding") == "gzip")
            #expect(zipped.header("Vary") == "Accept-Encoding")
            #expect(zipped.header("Content-Length") == String(zipped.body.count))
            #expect(zipped.body.count < plain.body.count / 2)
            #expect(try Gzip.decompress(zipped.body, limit: 1 << 20) == plain.body)
            let zippedTag = try #require(zipped.header("ETag"))
            #expect(zippedTag != plainTag, "each representation has its own strong ETag")

            // Validators are per representation.
            let revalidated = try await stack.get("/v1/rates", headers: ["Accept-Encoding: gzip", "If-None-Match: \(zippedTag)"])
            #expect(revalidated.status == 304)
            #expect(revalidated.header("ETag") == zippedTag)
            #expect(revalidated.header("Content-Encoding") == nil)
            let crossed = try await stack.get("/v1/rates", headers: ["If-None-Match: \(zippedTag)"])
            #expect(crossed.status == 200, "the gzip tag does not validate the identity bytes")

            // HEAD carries the gzip length and no body.
            let head = try await stack.get("/v1/rates", method: "HEAD", headers: ["Accept-Encoding: gzip"])
            #expect(head.header("Content-Encoding") == "gzip")
            #expect(head.header("Content-Length") == String(zipped.body.count))

            // Small answers are never compressed and do not vary.
            let small = try await stack.get("/v1/rates/USD", headers: ["Accept-Encoding: gzip"])
            #expect(small.status == 200 && small.body.count < 1024)
            #expect(small.header("Content-Encoding") == nil && small.header("Vary") == nil)

            // Refused by weight: identity.
            let refused = try await stack.get("/v1/rates", headers: ["Accept-Encoding: gzip;q=0, identity"])
            #expect(refused.header("Content-Encoding") == nil && refused.body == plain.body)
        }
    }

    @Test func hitsServeTheStoredTwin() async throws {
        try await FullStack.run(script: CompressionTests.scriptLargeTable) { stack in
            _ = try await stack.get("/v1/currencies", headers: ["Accept-Encoding: gzip"])
            let before = HTTPCaching.gzipVariants.compressionCount
            var bodies: Set<[UInt8]> = []
            for _ in 0..<20 {
                let r = try await stack.get("/v1/currencies", headers: ["Accept-Encoding: gzip"])
                #expect(r.header("Content-Encoding") == "gzip")
                bodies.insert(r.body)
            }
            #expect(bodies.count == 1)
            // Other tests may compress their own answers meanwhile; these 20 hits add none of theirs.
            #expect(HTTPCaching.gzipVariants.compressionCount - before <= 1)
        }
    }
}

extension FullStackTests.Binary {
    /// The real executable serves the gzip twin to a client that asks for it.
    @Test func servesGzipToClientsThatAcceptIt() async throws {
        let stub = try StubUpstream()
        defer { stub.stop() }
        CompressionTests.scriptLargeTable(stub)
        let (spawned, port) = try await AlmanacBinary.serving(AlmanacBinary.stubEnvironment(stub.baseURL))
        defer {
            spawned.kill()
            spawned.removeFiles()
        }
        let client = try RawHTTPClient(port: port, timeout: 15)
        try await client.request("GET", "/v1/rates", extra: ["Accept-Encoding: gzip"])
        let zipped = try await client.readResponse()
        try await client.request("GET", "/v1/rates")
        let plain = try await client.readResponse()
        #expect(zipped.header("Content-Encoding") == "gzip" && plain.header("Content-Encoding") == nil)
        #expect(try Gzip.decompress(zipped.body, limit: 1 << 20) == plain.body)
        #expect(zipped.header("ETag") != plain.header("ETag"))
    }
}

extension CompressionTests {
    @Test func theOpenAPIDocumentIsServedCompressed() async throws {
        try await FullStack.run { stack in
            let plain = try await stack.get("/openapi.json")
            let zipped = try await stack.get("/openapi.json", headers: ["Accept-Encoding: gzip"])
            #expect(plain.header("Content-Encoding") == nil && zipped.header("Content-Encoding") == "gzip")
            #expect(plain.header("Vary") == "Accept-Encoding" && zipped.header("Vary") == "Accept-Encoding")
            #expect(try Gzip.decompress(zipped.body, limit: 4 << 20) == plain.body)
        }
    }
}
