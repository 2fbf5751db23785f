import Foundation
import HTTPClientTestSupport
import Testing
import TestSupport
@testable import Almanac

extension FullStackTests.Binary {
    /// Search pages and volumes by id through the shared layer, between real almanac processes
    /// and a real redis-server, like books.
    @Suite(.enabled(if: RedisServerProcess.isInstalled, "redis-server is not installed (make test installs it)"))
    struct BookSearchSharedCache {
        static func script(_ stub: StubUpstream) {
            FullStackFixtures.scriptAll(stub)
            BookSearchStub.script(stub)
        }

        @Test func aSearchAndAVolumeStoredByOneReplicaAnswerAnother() async throws {
            try await Cluster.run(size: 2, script: Self.script) { cluster in
                let stub = cluster.stub
                let miss = try await cluster.get(0, "/books/v1/volumes?q=intitle:hobbit&maxResults=3")
                #expect(miss.status == 200, "\(miss.text)")
                #expect(miss.header("X-Cache") == "MISS")
                let shared = try await cluster.get(1, "/books/v1/volumes?q=INTITLE:hobbit&maxResults=3")
                #expect(shared.status == 200)
                #expect(shared.header("Cache-Status") == "almanac; hit; detail=redis")
                #expect(shared.body == miss.body)
                #expect(shared.header("ETag") == miss.header("ETag"))
                #expect(stub.requestCount(for: BookSearchStub.googleSearchPath) == 1, "one upstream call for the cluster")

                let id = BookSearchStub.googleID(1)
                let first = try await cluster.get(0, "/books/v1/volumes/\(id)")
                #expect(first.status == 200, "\(first.text)")
                let second = try await cluster.get(1, "/books/v1/volumes/\(id)")
                #expect(second.header("Cache-Status") == "almanac; hit; detail=redis")
                #expect(second.body == first.body)
                #expect(stub.requests.filter { $0.path.hasPrefix(BookSearchStub.googleVolumePrefix) }.count == 1)
            }
        }

        /// Google's volume id of an ISBN lookup travels in the book record: the other replica's
        /// answer from Redis carries it, byte for byte.
        @Test func anISBNLookupsGoogleIdIsSharedBetweenReplicas() async throws {
            let f = FullStackFixtures.self
            try await Cluster.run(size: 2, script: { stub in
                Self.script(stub)
                stub.route(f.googleTarget(f.isbn13), .json(f.google.replacingOccurrences(
                    of: #"{"kind":"books#volume","volumeInfo":{"title":"Fundamentals"#,
                    with: #"{"kind":"books#volume","id":"zyTCAlFPjgYC","volumeInfo":{"title":"Fundamentals"#)))
            }) { cluster in
                let miss = try await cluster.get(0, "/books/v1/volumes?q=isbn:\(f.isbn13)")
                #expect(miss.status == 200, "\(miss.text)")
                #expect(miss.text.contains(#""id":"zyTCAlFPjgYC""#), "\(miss.text)")
                let shared = try await cluster.get(1, "/books/v1/volumes?q=isbn:\(f.isbn13)")
                #expect(shared.header("Cache-Status") == "almanac; hit; detail=redis")
                #expect(shared.body == miss.body)
                #expect(cluster.stub.requestCount(for: f.googlePath) == 1, "one upstream call for the cluster")
            }
        }
    }
}
