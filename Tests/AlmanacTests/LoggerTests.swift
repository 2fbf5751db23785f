import Base
import Foundation
import HTTP1
import Synchronization
import Testing
import TestSupport
@testable import Almanac

@Suite struct LoggerTests {
    private static let token = "adm1n-t0ken-very-secret"
    private static let apiKey = "AIzaSyD-google-key-123"

    private func logger(_ format: LogFormat = .json, level: LogLevel = .debug) -> (Logger, MemoryLogSink) {
        let sink = MemoryLogSink()
        var config = AlmanacConfiguration()
        config.server.adminToken = Self.token
        config.books.googleBooks.apiKey = Self.apiKey
        let logger = Logger(configuration: .init(level: level, format: format, redactor: Redactor(secrets: config.secrets)), sink: sink)
        return (logger, sink)
    }

    @Test func noSecretReachesAnyLineAtAnyLevel() {
        for format in LogFormat.allCases {
            let (log, sink) = logger(format)
            log.debug("fetching https://www.googleapis.com/books/v1/volumes?q=isbn:9780132350884&key=\(Self.apiKey)",
                      ["url": .string("https://x.example/a?token=tok-999&apiKey=ak-888&api_key=ak-777&ok=1")])
            log.info("request headers: Authorization: Bearer \(Self.token)")
            log.warn("client sent authorization: Basic dXNlcjpwYXNz")
            log.error("token is \(Self.token), key is \(Self.apiKey)", ["detail": .string("Bearer other-secret-value")])
            log.access(AccessLogEntry(method: "DELETE", path: "/admin/\(Self.token)", status: 401, bytes: 10,
                                      durationSeconds: 0.0012345, requestID: "r1", remoteAddress: "127.0.0.1:5000"))
            let all = sink.lines.joined(separator: "\n")
            #expect(sink.lines.count == 5)
            for secret in [Self.token, Self.apiKey, "tok-999", "ak-888", "ak-777", "dXNlcjpwYXNz", "other-secret-value"] {
                #expect(!all.contains(secret), "\(format): \(secret) leaked")
            }
            #expect(all.contains("ok=1"), "non-secret parameters stay")
            #expect(all.contains("q=isbn:9780132350884"))
        }
    }

    @Test func jsonLinesAreValidJSONWithTheAccessFields() throws {
        let (log, sink) = logger()
        log.access(AccessLogEntry(method: "GET", path: "/v1/rates", status: 200, bytes: 512,
                                  durationSeconds: 0.0025, requestID: "abc", remoteAddress: "10.0.0.1:1234"))
        log.info("multi\nline \"quoted\"", ["n": 3])
        #expect(sink.lines.count == 2)
        let access = try #require(try JSONSerialization.jsonObject(with: Data(sink.lines[0].utf8)) as? [String: Any])
        #expect(access["msg"] as? String == "request")
        #expect(access["level"] as? String == "info")
        #expect(access["method"] as? String == "GET" && access["path"] as? String == "/v1/rates")
        #expect(access["status"] as? Int == 200 && access["bytes"] as? Int == 512)
        #expect(access["duration_ms"] as? Double == 2.5)
        #expect(access["request_id"] as? String == "abc" && access["remote"] as? String == "10.0.0.1:1234")
        let time = try #require(access["time"] as? String)
        #expect(time.count == 24 && time.hasSuffix("Z") && time.contains("T"))
        let other = try #require(try JSONSerialization.jsonObject(with: Data(sink.lines[1].utf8)) as? [String: Any])
        #expect(other["msg"] as? String == "multi\nline \"quoted\"")
        #expect(other["n"] as? Int == 3)
    }

    @Test func levelsFilter() {
        let (log, sink) = logger(level: .warn)
        log.debug("d")
        log.info("i")
        log.access(AccessLogEntry(method: "GET", path: "/", status: 200, bytes: 0, durationSeconds: 0, requestID: "", remoteAddress: ""))
        log.warn("w")
        log.error("e")
        #expect(sink.lines.count == 2)
    }

    @Test func textFormatKeepsOneLinePerEvent() {
        let (log, sink) = logger(.text)
        log.info("two\nlines", ["path": "/a b"])
        #expect(sink.lines.count == 1)
        #expect(!sink.lines[0].contains("\n"))
        #expect(sink.lines[0].contains(#"path="/a b""#))
        #expect(sink.lines[0].contains(" INFO "))
    }

    @Test func timestampFormat() {
        #expect(TimestampText.iso8601Milliseconds(seconds: 0, milliseconds: 5) == "1970-01-01T00:00:00.005Z")
        #expect(TimestampText.iso8601Milliseconds(seconds: 1_700_000_000, milliseconds: 999) == "2023-11-14T22:13:20.999Z")
    }
}

/// The standard-output sink batches access-log lines until `flush()` (or an immediate line,
/// or the threshold) and never reorders or loses a line.
@Suite struct StandardOutputSinkTests {
    private func withPipe(_ body: (Int32) -> Void) -> String {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        body(fds[1])
        close(fds[1])
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(fds[0], &chunk, chunk.count)
            if n <= 0 { break }
            data.append(contentsOf: chunk[0..<n])
        }
        close(fds[0])
        return String(decoding: data, as: UTF8.self)
    }

    @Test func deferredLinesWaitForFlushAndKeepOrder() {
        let text = withPipe { fd in
            let sink = StandardOutputSink(fileDescriptor: fd)
            sink.writeDeferred(line: Array("a\n".utf8))
            sink.writeDeferred(line: Array("b\n".utf8))
            sink.write(line: Array("c\n".utf8))  // immediate: after the deferred ones
            sink.writeDeferred(line: Array("d\n".utf8))
            sink.flush()
            sink.flush()  // nothing left: nothing written twice
        }
        #expect(text == "a\nb\nc\nd\n")
    }

    @Test func linesBuiltInPlaceAreDeferredLikeLines() {
        let text = withPipe { fd in
            let sink = StandardOutputSink(fileDescriptor: fd, flushThreshold: 8)
            sink.writeDeferred(line: Array("a\n".utf8))
            sink.writeDeferred { $0.append(contentsOf: "b\n".utf8) }
            sink.write(line: Array("c\n".utf8))
            sink.writeDeferred { $0.append(contentsOf: "0123456789\n".utf8) }  // past the threshold: written at once
            sink.writeDeferred { $0.append(contentsOf: "d\n".utf8) }
            sink.flush()
        }
        #expect(text == "a\nb\nc\n0123456789\nd\n")
    }

    @Test func thresholdFlushesWithoutTheCallerWriting() async {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        let sink = StandardOutputSink(fileDescriptor: fds[1], flushThreshold: 8)
        sink.writeDeferred(line: Array("1234\n".utf8))
        var chunk = [UInt8](repeating: 0, count: 64)
        #expect(read(fds[0], &chunk, chunk.count) == -1)  // held
        sink.writeDeferred(line: Array("5678\n".utf8))    // past the threshold: written by the sink's queue
        var received: [UInt8] = []
        #expect(await waitUntil {
            let n = read(fds[0], &chunk, chunk.count)
            if n > 0 { received.append(contentsOf: chunk[0..<n]) }
            return received.count >= 10
        }, "the threshold flush to arrive")
        #expect(String(decoding: received, as: UTF8.self) == "1234\n5678\n")
    }

    /// A reader that stops reading (a disk in writeback, a stuck log shipper) must not stall
    /// the server's queues: deferred lines below `maxPendingBytes` return at once while the
    /// sink's own queue waits in `write(2)`, and once the reader drains, every line arrives
    /// once and in order.
    @Test(.timeLimit(.minutes(1)))
    func aStalledReaderDoesNotBlockDeferredWriters() async throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let (readEnd, writeEnd) = (fds[0], fds[1])
        // Fill the pipe so the next write(2) blocks.
        _ = fcntl(writeEnd, F_SETFL, O_NONBLOCK)
        var filler = 0
        let block = [UInt8](repeating: UInt8(ascii: "f"), count: 4096)
        while true {
            let n = write(writeEnd, block, block.count)
            if n <= 0 { break }
            filler += n
        }
        _ = fcntl(writeEnd, F_SETFL, 0)
        let sink = StandardOutputSink(fileDescriptor: writeEnd, flushThreshold: 256, maxPendingBytes: 1 << 20)
        let lines = (0..<2000).map { "line \($0)\n" }  // ~22 KB: many threshold flushes, all while the pipe is full
        let expected = lines.joined()
        let writes = Task.detached {
            for line in lines { sink.writeDeferred(line: Array(line.utf8)) }
        }
        // The writes must finish while nobody reads; if they waited for the reader, draining
        // below unblocks them and this check fails instead of hanging.
        let finished = Mutex(false)
        let watcher = Task.detached { await writes.value; finished.withLock { $0 = true } }
        let deadline = TestDeadline(seconds: 10)
        while !finished.withLock({ $0 }) && !deadline.passed { try await Task.sleep(nanoseconds: 5_000_000) }
        #expect(finished.withLock { $0 }, "deferred writes waited for a reader that stopped reading")
        // The reader blocks in read(2): a thread of its own, not one of the concurrency pool's.
        let received = Mutex<(data: [UInt8], done: Bool)>(([], false))
        let reader = Thread {
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = read(readEnd, &chunk, chunk.count)
                if n <= 0 { break }
                received.withLock { $0.data.append(contentsOf: chunk[0..<n]) }
            }
            received.withLock { $0.done = true }
        }
        reader.start()
        await watcher.value
        sink.flush()  // waits for the queued writes, then writes the rest
        close(writeEnd)
        let end = TestDeadline(seconds: 10)
        while !received.withLock({ $0.done }) && !end.passed { try await Task.sleep(nanoseconds: 5_000_000) }
        let data = received.withLock { $0.data }
        close(readEnd)
        #expect(data.count == filler + expected.utf8.count)
        #expect(String(decoding: data.dropFirst(filler), as: UTF8.self) == expected)
    }

    @Test func accessLinesAreDeferredOtherLinesAreNot() {
        let text = withPipe { fd in
            let logger = Logger(configuration: .init(level: .info), sink: StandardOutputSink(fileDescriptor: fd))
            logger.access(AccessLogEntry(method: "GET", path: "/v1/rates?key=SECRET", status: 200, bytes: 5,
                                         durationSeconds: 0.001, requestID: "r1", remoteAddress: "127.0.0.1:1"))
            logger.info("later")
            logger.flushAccessLog()
        }
        let lines = text.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.contains(#""msg":"request""#) == true)
        #expect(lines.first?.contains("key=***") == true)
        #expect(lines.first?.contains("SECRET") == false)
        #expect(lines.last?.contains(#""msg":"later""#) == true)
    }
}
