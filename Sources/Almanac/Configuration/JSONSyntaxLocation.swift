import Base

/// Where a configuration file's JSON goes wrong, as an editor shows it: line and column (both
/// from 1; a column counts Unicode scalars, not bytes), with the strict parser's reason.
/// Foundation's own message only gives a character offset, so the file is re-read with the
/// project's `JSONParser`, whose errors carry the byte offset.
struct JSONSyntaxLocation: Equatable, CustomStringConvertible {
    var line: Int
    var column: Int
    var reason: String

    init(line: Int, column: Int, reason: String) {
        self.line = line
        self.column = column
        self.reason = reason
    }

    /// Nil when the strict parser accepts the bytes (then the caller keeps Foundation's words).
    init?(of bytes: [UInt8]) {
        do {
            _ = try JSONParser.parse(bytes)
            return nil
        } catch {
            let end = min(max(0, error.offset), bytes.count)
            var line = 1
            var column = 1
            for byte in bytes[..<end] {
                if byte == 0x0A {
                    line += 1
                    column = 1
                } else if byte & 0xC0 != 0x80 {
                    column += 1
                }
            }
            self.init(line: line, column: column, reason: error.reason)
        }
    }

    var description: String { "\(reason) at line \(line), column \(column)" }
}
