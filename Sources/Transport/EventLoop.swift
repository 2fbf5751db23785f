import CEpoll
import Dispatch
import Glibc
import Synchronization

/// One thread that owns one epoll set, and everything that happens to the sockets in it.
///
/// The thread blocks in `epoll_wait` with the next timer's deadline as its timeout, delivers
/// the batch of ready sockets to their handlers, fires the timers that are due, then runs the
/// "after this batch" callbacks (`afterBatch`: the access-log flush), and waits again. Nothing
/// on that path takes a lock, hops to another thread or queue, or touches memory another
/// loop writes: a request that is answered at once (a cache hit) is read, answered, written
/// and logged on this thread.
///
/// Work from other threads (an answer computed in a task, shutdown) is handed in with
/// `execute`: it goes into a lock-protected queue and, when that queue was empty, the loop is
/// woken through an eventfd. The lock and the eventfd are only touched when work is handed
/// in, never on the loop's own path. Timers (`addTimer`, `arm`) live in a per-loop
/// `LoopTimers` heap with lazy re-arm, so a deadline that moves later costs O(1).
///
/// Why not Dispatch queues (what the server used before; docs/server.md, "Event loops"): a
/// queue watched through a Dispatch read source costs, per batch of ready sockets, a wake-up
/// of Dispatch's event thread and a hop to a worker thread, and every timer is a
/// `DispatchSourceTimer` that Dispatch's own timer heap reschedules.
///
/// Everything but `execute`, `stop`, `sync` and `inEventLoop` must be called on the loop's
/// thread; hence `@unchecked Sendable`.
public final class EventLoop<Handler: SocketReadinessHandler>: @unchecked Sendable {
    /// The loop's epoll set: register the sockets whose handlers live on this loop.
    public let sockets = SocketReadinessSet<Handler>()

    private let wakeFD: Int32
    /// Work handed in from other threads, in order.
    private let handedIn = Mutex<[@Sendable () -> Void]>([])
    /// What the loop's own thread changes, behind a pointer: each access to a class's stored
    /// `var` pays a run-time exclusivity check, and every batch touched these several times
    /// (the timers, the after-batch work). Only the loop's thread touches them, and no access
    /// spans a call out (work is swapped out of its array, or the array copied, before it runs),
    /// so the checks guarded nothing.
    private struct LoopState {
        /// The batch of handed-in work being run (kept to reuse its storage).
        var running: [@Sendable () -> Void] = []
        var afterBatchWork: [() -> Void] = []
        var afterBatchRunning: [() -> Void] = []
        var timers = LoopTimers<() -> Void>()
        /// Descriptors the loop reads for itself (a listening socket), by descriptor.
        var watchers: [(fd: Int32, readable: () -> Void)] = []

        /// Moves the queued after-batch work into `afterBatchRunning` (and the emptied
        /// running array, with its storage, back to the queue).
        mutating func takeAfterBatchWork() {
            swap(&afterBatchWork, &afterBatchRunning)
        }
    }

    private let loopState: UnsafeMutablePointer<LoopState>
    @inline(__always)
    private var owned: LoopState {
        _read { yield loopState.pointee }
        _modify { yield &loopState.pointee }
    }
    private let thread = Atomic<UInt>(0)
    /// The loop thread's CPU-time clock (`pthread_getcpuclockid`), once the thread runs;
    /// `Int.max` before. Any thread may read that clock (`threadCPUNanoseconds`).
    private let cpuClock = Atomic<Int>(Int.max)
    private let stopRequested = Atomic<Bool>(false)
    /// This loop's number, for its `LoopShard`.
    private let index = LoopShard.nextLoopIndex()

    /// Starts the loop's thread.
    public init() {
        loopState = .allocate(capacity: 1)
        loopState.initialize(to: LoopState())
        wakeFD = eventfd(0, Int32(EFD_NONBLOCK) | Int32(EFD_CLOEXEC))
        precondition(wakeFD >= 0, "eventfd failed: errno \(errno)")
        let error = sockets.watchUnclaimed(fd: wakeFD)
        precondition(error == 0, "epoll_ctl(eventfd) failed: errno \(error)")
        let body = ThreadBody { [self] in run() }
        var id = pthread_t()
        let created = pthread_create(&id, nil, { raw in
            guard let raw else { return nil }
            let body = Unmanaged<ThreadBody>.fromOpaque(raw).takeRetainedValue()
            body.run()
            return nil
        }, Unmanaged.passRetained(body).toOpaque())
        precondition(created == 0, "pthread_create failed: \(created)")
        pthread_detach(id)
    }

    deinit {
        close(wakeFD)
        loopState.deinitialize(count: 1)
        loopState.deallocate()
    }

    /// True on the loop's own thread.
    public var inEventLoop: Bool {
        thread.load(ordering: .acquiring) == UInt(pthread_self())
    }

    // MARK: - Any thread

    /// Runs `work` on the loop, after what it is doing now, in the order handed in.
    public func execute(_ work: @escaping @Sendable () -> Void) {
        let wasEmpty = handedIn.withLock { queue in
            queue.append(work)
            return queue.count == 1
        }
        guard wasEmpty else { return } // a wake-up is on its way already
        wake()
    }

    private func wake() {
        var one: UInt64 = 1
        _ = write(wakeFD, &one, MemoryLayout<UInt64>.size)
    }

    /// Runs `body` on the loop and returns its result (at once when called on the loop). Blocks
    /// the calling thread: for tests and diagnostics only.
    public func sync<Result: Sendable>(_ body: @escaping @Sendable () -> Result) -> Result {
        if inEventLoop { return body() }
        let done = DispatchSemaphore(value: 0)
        let box = SyncResult<Result>()
        execute {
            box.value = body()
            done.signal()
        }
        done.wait()
        guard let value = box.value else { preconditionFailure("the loop signalled before storing the result") }
        return value
    }

    /// CPU time the loop's thread has used so far, from any thread; nil before the thread runs
    /// or after it ended. What `LoopGovernor` calls a loop's busy time: sleeping in
    /// `epoll_wait` costs none, waiting for a processor none either.
    public func threadCPUNanoseconds() -> UInt64? {
        let clock = cpuClock.load(ordering: .acquiring)
        guard clock != Int.max else { return nil }
        var now = timespec()
        guard clock_gettime(clockid_t(truncatingIfNeeded: clock), &now) == 0, now.tv_sec >= 0, now.tv_nsec >= 0 else { return nil }
        return UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
    }

    /// Ends the loop after the batch in hand; its thread exits and lets go of the loop.
    public func stop() {
        stopRequested.store(true, ordering: .releasing)
        wake()
    }

    // MARK: - On the loop

    /// Runs `work` once the current batch (ready sockets, handed-in work, due timers) is
    /// done, before the loop waits again.
    public func afterBatch(_ work: @escaping () -> Void) {
        owned.afterBatchWork.append(work)
    }

    /// A timer that calls `fire` on the loop each time it is due; disarmed until `arm`.
    public func addTimer(_ fire: @escaping () -> Void) -> Int {
        owned.timers.add(fire)
    }

    /// Makes the timer due at `deadline` (`DispatchTime` uptime nanoseconds). Later than its
    /// current setting: O(1).
    public func arm(_ timer: Int, at deadline: UInt64) {
        owned.timers.arm(timer, at: deadline)
    }

    /// Removes the timer for good.
    public func removeTimer(_ timer: Int) {
        owned.timers.remove(timer)
    }

    /// Reads `fd` on the loop: `readable` runs whenever it is readable (level-triggered).
    /// Returns 0 or the `errno` of the failed `epoll_ctl`.
    public func watch(fd: Int32, readable: @escaping () -> Void) -> Int32 {
        let error = sockets.watchUnclaimed(fd: fd)
        if error == 0 { owned.watchers.append((fd, readable)) }
        return error
    }

    /// Stops reading `fd` (before it is closed).
    public func unwatch(fd: Int32) {
        guard let index = owned.watchers.firstIndex(where: { $0.fd == fd }) else { return }
        owned.watchers.remove(at: index)
        sockets.unwatchUnclaimed(fd: fd)
    }

    // MARK: - The loop

    private func run() {
        thread.store(UInt(pthread_self()), ordering: .releasing)
        var clock = clockid_t()
        if pthread_getcpuclockid(pthread_self(), &clock) == 0 { cpuClock.store(Int(clock), ordering: .releasing) }
        defer { cpuClock.store(Int.max, ordering: .releasing) }
        LoopShard.enter(loopIndex: index)
        while !stopRequested.load(ordering: .acquiring) {
            sockets.poll(timeoutMilliseconds: timeout()) { fd in unclaimed(fd) }
            fireDueTimers()
            runAfterBatch()
        }
        // Let go of whatever the callbacks hold (their owners may hold this loop).
        owned.watchers = []
        owned.timers = LoopTimers()
        owned.afterBatchWork = []
    }

    /// Until the next timer is due (rounded up to whole milliseconds), or indefinitely.
    private func timeout() -> Int32 {
        guard let next = owned.timers.nextDeadline() else { return -1 }
        let now = SystemFacts.monotonicNanoseconds()
        guard next > now else { return 0 }
        return Int32(clamping: (next - now + 999_999) / 1_000_000)
    }

    private func unclaimed(_ fd: Int32) {
        if fd == wakeFD {
            runHandedIn()
        } else if let watcher = owned.watchers.first(where: { $0.fd == fd }) {
            watcher.readable()
        }
    }

    private func runHandedIn() {
        var count: UInt64 = 0
        _ = read(wakeFD, &count, MemoryLayout<UInt64>.size)
        handedIn.withLock { queue in swap(&queue, &owned.running) }
        for work in owned.running { work() }
        owned.running.removeAll(keepingCapacity: true)
    }

    private func fireDueTimers() {
        guard owned.timers.nextDeadline() != nil else { return }
        let now = SystemFacts.monotonicNanoseconds()
        while let due = owned.timers.popDue(now: now) { due.payload() }
    }

    private func runAfterBatch() {
        while !owned.afterBatchWork.isEmpty {
            owned.takeAfterBatchWork()
            for work in owned.afterBatchRunning { work() }
            owned.afterBatchRunning.removeAll(keepingCapacity: true)
        }
    }
}

/// What a loop's thread runs, passed through `pthread_create`'s context pointer (a C function
/// cannot capture the loop's generic type).
private final class ThreadBody {
    let run: () -> Void
    init(run: @escaping () -> Void) { self.run = run }
}

/// The result `sync` waits for: written on the loop before the semaphore is signalled, read
/// after the wait, so the semaphore orders the two.
private final class SyncResult<Value>: @unchecked Sendable {
    var value: Value?
}
