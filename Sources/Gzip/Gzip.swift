import CZlib

/// gzip content coding (RFC 9110 §8.4.1.3, RFC 1952) through the system zlib.
///
/// almanac compresses a stored answer once and serves the compressed bytes to every client
/// that accepts gzip, so compression favours size over speed (level 9): the cost is paid once
/// per representation, the saving on every response.
public enum Gzip {
    /// Why zlib refused; carries zlib's return code. Never seen for well-formed input to
    /// `compress`; `decompress` reports corrupt or oversized input this way.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public var code: Int32
        public var reason: String
        public var description: String { "gzip: \(reason) (zlib \(code))" }
    }

    /// The gzip member for `bytes`, at compression level `level` (0–9).
    public static func compress(_ bytes: [UInt8], level: Int32 = 9) throws(Failure) -> [UInt8] {
        var stream = z_stream()
        let initialized = almanac_deflate_init_gzip(&stream, level)
        guard initialized == Z_OK else { throw Failure(code: initialized, reason: "deflateInit2 failed") }
        defer { deflateEnd(&stream) }
        // deflateBound is exact for one deflate(Z_FINISH) call over the whole input.
        let bound = Int(deflateBound(&stream, uLong(bytes.count)))
        var output = [UInt8](repeating: 0, count: bound)
        var input = bytes
        let status: Int32 = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination in
                stream.next_in = source.baseAddress
                stream.avail_in = uInt(source.count)
                stream.next_out = destination.baseAddress
                stream.avail_out = uInt(destination.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { throw Failure(code: status, reason: "deflate did not finish") }
        output.removeSubrange(Int(stream.total_out)...)
        return output
    }

    /// The bytes of a gzip member, refusing to produce more than `limit` bytes (a decompression
    /// bomb stops at the limit instead of filling memory).
    public static func decompress(_ bytes: [UInt8], limit: Int) throws(Failure) -> [UInt8] {
        var stream = z_stream()
        let initialized = almanac_inflate_init_gzip(&stream)
        guard initialized == Z_OK else { throw Failure(code: initialized, reason: "inflateInit2 failed") }
        defer { inflateEnd(&stream) }
        var input = bytes
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let status: Int32 = input.withUnsafeMutableBufferPointer { source in
            stream.next_in = source.baseAddress
            stream.avail_in = uInt(source.count)
            while true {
                let (code, produced) = chunk.withUnsafeMutableBufferPointer { destination in
                    stream.next_out = destination.baseAddress
                    stream.avail_out = uInt(destination.count)
                    let code = inflate(&stream, Z_NO_FLUSH)
                    return (code, destination.count - Int(stream.avail_out))
                }
                guard code == Z_OK || code == Z_STREAM_END else { return code }
                guard output.count + produced <= limit else { return Z_BUF_ERROR }
                output.append(contentsOf: chunk[..<produced])
                if code == Z_STREAM_END { return code }
                if produced == 0 && stream.avail_in == 0 { return Z_DATA_ERROR }
            }
        }
        guard status == Z_STREAM_END else {
            throw Failure(code: status, reason: status == Z_BUF_ERROR ? "more than \(limit) bytes" : "corrupt or truncated input")
        }
        return output
    }
}
