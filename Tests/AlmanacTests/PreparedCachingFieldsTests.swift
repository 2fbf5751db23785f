import Foundation
import HTTP1
import Testing
import TestSupport
@testable import Almanac
@testable import Transport

/// `PreparedCachingFields` keeps one table per event loop: a loop's hits read only blocks that
/// loop prepared, so no lock, slot or block is written by two loops.
@Suite struct PreparedCachingFieldsTests {
    /// On the thread of event loop `loop`, asks for `key`'s block `times` times and says which
    /// answers were blocks (by identity; nil for "send the fields plain").
    private static func ask(_ key: PreparedCachingFields.Key, times: Int, onLoop loop: Int) async -> [ObjectIdentifier?]? {
        let answers = Locked<[ObjectIdentifier?]?>(nil)
        Thread.detachNewThread {
            LoopShard.enter(loopIndex: loop)
            answers.set((0..<times).map { _ in
                PreparedCachingFields.prepared(left: key.left, age: key.age, status: key.status, gzip: key.gzip, vary: key.vary,
                                                   etag: key.etag, contentType: key.contentType) { [HTTPHeaders.Field(name: "ETag", value: key.etag)] }
                    .map(ObjectIdentifier.init)
            })
        }
        _ = await waitUntil { answers.value != nil }
        return answers.value
    }

    @Test func eachLoopPreparesAndKeepsItsOwnBlock() async throws {
        let key = PreparedCachingFields.Key(left: 7, age: 1, status: 200, gzip: false, vary: false,
                                            etag: "\"loop-local-\(UInt64.random(in: 0...UInt64.max))\"",
                                            contentType: "text/plain")
        let first = try #require(await Self.ask(key, times: 3, onLoop: 4))
        #expect(first[0] == nil, "a combination seen once is sent plain")
        let block = try #require(first[1], "prepared on its second sighting")
        #expect(first[2] == block)
        // Another loop has not seen it: its own first sighting, then its own block.
        let other = try #require(await Self.ask(key, times: 2, onLoop: 5))
        #expect(other[0] == nil)
        #expect(other[1] != nil && other[1] != block)
        // The first loop still has its own.
        #expect(try #require(await Self.ask(key, times: 1, onLoop: 4)) == [block])
    }
}
