import Synchronization

/// A value shared between a test and the `@Sendable` closures it hands out (stub handlers,
/// loaders, log sinks, callbacks on other threads): the one lock box tests use instead of a
/// small Mutex-wrapped class per file. Reads return a copy taken under the lock.
public final class Locked<Value: Sendable>: Sendable {
    private let state: Mutex<Value>

    public init(_ initial: Value) { state = Mutex(initial) }

    /// A copy of the value now.
    public var value: Value { state.withLock { $0 } }

    /// Replaces the value.
    public func set(_ newValue: Value) { state.withLock { $0 = newValue } }

    /// Runs `body` with the value under the lock (read-modify-write in one step).
    @discardableResult
    public func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
        state.withLock { body(&$0) }
    }
}

extension Locked where Value: BinaryInteger {
    /// Adds `amount` and returns the new value (1 after the first `increment()` from 0).
    @discardableResult
    public func increment(by amount: Value = 1) -> Value {
        state.withLock { $0 += amount; return $0 }
    }
}

extension Locked where Value: RangeReplaceableCollection, Value.Element: Sendable {
    /// Appends `element` (a log line, a recorded call).
    public func append(_ element: Value.Element) {
        state.withLock { $0.append(element) }
    }
}
