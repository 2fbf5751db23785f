// The RESP fuzz entry point: parses each input whole, split in two and three places chosen from
// the input, and byte by byte, under default and tiny limits, and traps when the outcomes differ,
// an error is not sticky, or a parsed value does not survive encode → parse unchanged.
import Base
import FuzzChunkings
import Redis

let limitSets: [RESPParserLimits] = [
    RESPParserLimits(),
    RESPParserLimits(maxDepth: 3, maxBulkBytes: 16, maxAggregateCount: 4, maxLineBytes: 10),
]

func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("invariant broken: \(message())") }
}

/// The values parsed from `chunks` fed in order, re-encoded (bytes compare NaN doubles exactly),
/// then the error, if any.
func drive(_ chunks: [ArraySlice<UInt8>], limits: RESPParserLimits) -> (encoded: [[UInt8]], error: RESPParseError?) {
    var parser = RESPParser(limits: limits)
    var encoded: [[UInt8]] = []
    var appended = 0
    for chunk in chunks {
        parser.append(chunk)
        appended += chunk.count
        while true {
            check(parser.bufferedByteCount >= 0 && parser.bufferedByteCount <= appended, "bufferedByteCount out of range")
            let value: RESPValue?
            do {
                value = try parser.next()
            } catch {
                check(error.offset >= 0 && error.offset < appended, "error offset \(error.offset) outside the input")
                check(!error.description.isEmpty, "empty description")
                parser.append([43, 79, 75, 13, 10]) // "+OK\r\n": the error must stick
                do {
                    _ = try parser.next()
                    fatalError("error not sticky")
                } catch let again {
                    check(again == error, "a different error after the first")
                }
                return (encoded, error)
            }
            guard let value else { break }
            var bytes: [UInt8] = []
            RESPEncoder.append(value, to: &bytes)
            // What the parser produced re-encodes to something it reads back identically.
            var again = RESPParser()
            again.append(bytes)
            guard let reparsed = try? again.next() else { fatalError("re-encoded value does not parse") }
            var bytesAgain: [UInt8] = []
            RESPEncoder.append(reparsed, to: &bytesAgain)
            check(bytesAgain == bytes, "encode → parse → encode changed the value")
            encoded.append(bytes)
        }
    }
    return (encoded, nil)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    for limits in limitSets {
        let whole = drive([bytes[...]], limits: limits)
        for (label, chunks) in Chunkings.alternatives(of: bytes) {
            let other = drive(chunks, limits: limits)
            check(other.encoded == whole.encoded && other.error == whole.error, "\(label) differs")
        }
    }
    return 0
}
