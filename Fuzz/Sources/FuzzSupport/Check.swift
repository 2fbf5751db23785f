// Shared by the decoder fuzz targets: a trap libFuzzer reports as a crash, and the input.

/// Traps (so libFuzzer saves the input to fuzz-artifacts/) when an invariant is broken.
/// `precondition` would be compiled out under -Ounchecked; this never is.
public func check(_ condition: Bool, _ message: @autoclosure () -> String,
                  file: StaticString = #fileID, line: UInt = #line) {
    if !condition { fatalError("invariant broken: \(message())", file: file, line: line) }
}

/// libFuzzer's input as the upstream body bytes (`data` may be null when `size` is 0).
public func inputBytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
    guard let data, size > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: size))
}
