import Foundation
import Gzip
import HTTP1
import Web
import Testing
@testable import Almanac
@testable import Transport
import TestSupport

/// gzip content coding: the codec, `Accept-Encoding` negotiation, the once-per-representation
/// twins. Over sockets (the full stack, the binary): `FullStackCompressionTests`.
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

    /// Each event loop keeps its own twins (a gzip hit never takes another loop's lock), yet a
    /// body is compressed once: a loop's first request takes the twin another loop made.
    @Test func eachLoopKeepsItsOwnTwins() async throws {
        let variants = GzipVariants()
        let body = Array(String(repeating: "almanac ", count: 400).utf8)
        func make(onLoop loop: Int) async -> String? {
            let made = Locked<String??>(nil)
            Thread.detachNewThread {
                LoopShard.enter(loopIndex: loop)
                made.set(.some(variants.variant(of: body, etag: "\"per-loop\"")?.etag))
            }
            _ = await waitUntil { made.value != nil }
            return made.value ?? nil
        }
        #expect(await make(onLoop: 2) == "\"per-loop-gzip\"")
        #expect(variants.compressionCount == 1)
        #expect(await make(onLoop: 2) != nil)
        #expect(variants.compressionCount == 1, "the same loop's hit compresses nothing")
        #expect(await make(onLoop: 3) == "\"per-loop-gzip\"")
        #expect(variants.compressionCount == 1, "another loop takes the twin already made")
        #expect(variants.storedBytes > 0)
        #expect(await make(onLoop: 3) != nil)
        #expect(variants.compressionCount == 1)
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
}
