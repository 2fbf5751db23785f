// The fuzz entry point: parses each input whole, split in two and three places chosen from
// the input, and byte by byte, under default and tiny limits, and traps when the outcomes
// differ or an invariant of the parser's contract breaks.
import FuzzChunkings
import HTTP1

/// A comparable summary of one event.
enum Digest: Equatable {
    case expectContinue
    case request(method: String, target: String, path: String, query: String, version: String,
                 headers: [String], body: [UInt8], keepAlive: Bool)
    case error(Int, String)

    var isRequestOrError: Bool {
        if case .expectContinue = self { return false }
        return true
    }
}

let limitSets: [RequestParserLimits] = [
    RequestParserLimits(),
    {
        var tiny = RequestParserLimits(maxRequestLineBytes: 24, maxHeaderBytes: 48, maxHeaderFields: 3, maxBodyBytes: 12)
        tiny.maxChunkExtensionBytes = 10
        return tiny
    }(),
]

func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("invariant broken: \(message())") }
}

/// Feeds `chunks` in order, draining `next()` after each, checking invariants on the way.
func drive(_ chunks: [ArraySlice<UInt8>], limits: RequestParserLimits) -> [Digest] {
    var parser = RequestParser(limits: limits)
    var events: [Digest] = []
    var appended = 0
    var lastWasExpect = false
    for chunk in chunks {
        parser.append(Array(chunk))
        appended += chunk.count
        var steps = 0
        while true {
            steps += 1
            check(steps <= chunk.count + 2, "more events than bytes")
            check(parser.bufferedByteCount >= 0 && parser.bufferedByteCount <= appended, "bufferedByteCount out of range")
            let event = parser.next()
            switch event {
            case .needMore:
                if parser.phase == .idle { check(parser.bufferedByteCount == 0, "idle with bytes buffered") }
            case .expectContinue:
                check(!lastWasExpect, "expectContinue twice for one request")
                check(parser.phase == .body, "expectContinue outside the body phase")
                lastWasExpect = true
                events.append(.expectContinue)
                continue
            case .request(let r, let keepAlive):
                check(!r.method.isEmpty, "empty method")
                check(r.body.count <= limits.maxBodyBytes, "body over the limit")
                // An absolute-form target may add the Host it names (RFC 9112 §3.2.2).
                let injectedHost = r.target.hasPrefix("/") || r.target == "*" ? 0 : 1
                check(r.headers.count <= limits.maxHeaderFields + injectedHost, "too many fields")
                check(r.version == .http1_1 || r.version == .http1_0, "unsupported version accepted")
                check(r.version == .http1_1 ? r.headers.values(for: "Host").count == 1 : r.headers.values(for: "Host").count <= 1, "Host rules")
                check(r.requestID.isEmpty, "requestID filled by the parser")
                lastWasExpect = false
                events.append(.request(method: r.method, target: r.target, path: r.path, query: r.rawQuery,
                                       version: r.version.description, headers: r.headers.map { "\($0.name): \($0.value)" },
                                       body: r.body, keepAlive: keepAlive))
                continue
            case .error(let e):
                check([400, 413, 414, 417, 431, 501, 505].contains(e.status.code), "unexpected status \(e.status.code)")
                check(!e.detail.isEmpty, "empty detail")
                // Terminal: the same error forever, whatever arrives next.
                parser.append([0x47, 0x0D, 0x0A])
                guard case .error(let again) = parser.next(), again == e else { fatalError("error not sticky") }
                events.append(.error(e.status.code, e.detail))
                return events
            }
            break
        }
    }
    return events
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    for limits in limitSets {
        let expected = drive([bytes[...]], limits: limits).filter(\.isRequestOrError)
        for (label, chunks) in Chunkings.alternatives(of: bytes) {
            check(drive(chunks, limits: limits).filter(\.isRequestOrError) == expected, "\(label) differs")
        }
    }
    return 0
}
