import Dispatch
import Foundation
import TestSupport
@testable import Transport

/// Starts `body` on a new thread marked as the `loop`th event loop's (as `EventLoop.run` marks
/// its own thread); its result appears in the returned box when it returns.
func startEventLoopThread<T: Sendable>(_ loop: Int, _ body: @escaping @Sendable () -> T) -> Locked<T?> {
    let result = Locked<T?>(nil)
    Thread.detachNewThread {
        LoopShard.enter(loopIndex: loop)
        result.set(body())
    }
    return result
}

/// Runs `body` on a new thread marked as the `loop`th event loop's and returns its result, or
/// nil when it has not returned within `waitUntil`'s deadline (the thread is then left to finish).
func onEventLoop<T: Sendable>(_ loop: Int, _ body: @escaping @Sendable () -> T) async -> T? {
    let result = startEventLoopThread(loop, body)
    _ = await waitUntil { result.value != nil }
    return result.value
}

/// Runs `critical` on a thread of its own, which then holds on (inside whatever lock
/// `critical` took) until `body` has returned: what a test needs to show that `body` never
/// waits for that lock.
func whileHeldElsewhere<T: Sendable>(
    _ critical: @escaping @Sendable (_ hold: () -> Void) -> Void, _ body: () async -> T
) async -> T {
    let holding = Locked(false)
    let release = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        critical {
            holding.set(true)
            release.wait()
        }
    }
    _ = await waitUntil { holding.value }
    let answer = await body()
    release.signal()
    return answer
}
