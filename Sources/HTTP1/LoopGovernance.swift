import Dispatch
import Synchronization
import Transport

/// Runs `LoopGovernor` for a server with `LoopPlacement.adaptive` and more than one loop:
/// every `interval` it reads each loop thread's CPU clock, the machine's idle time and the
/// loops' connection counts, and applies the governor's outcome (the active count that
/// placement reads, the loops' shed quotas). It never touches a loop's thread: everything it
/// reads or writes is an atomic or a clock, so a cached hit is not slowed by it.
///
/// The sampling runs on its own serial queue, four times a second: about 20 µs of CPU a
/// second (one read of `/proc/stat`, a clock per loop).
///
/// `@unchecked Sendable`: the timer is only resumed and cancelled under `phase`'s lock.
final class LoopGovernance: @unchecked Sendable {
    /// Loops `0..<active` take new connections.
    let active = Atomic<Int>(1)

    static let interval: DispatchTimeInterval = .milliseconds(250)

    private let loops: [ConnectionLoop]
    private let queue = DispatchQueue(label: "almanac.loop-governance")
    private struct Readings {
        var governor: LoopGovernor
        var at: UInt64 = 0
        var loopCPU: [UInt64?] = []
        var idle: UInt64?
    }
    private let readings: Mutex<Readings>
    private enum Phase { case created, sampling, stopped }
    private let phase = Mutex(Phase.created)
    private let timer: DispatchSourceTimer

    /// Where the readings come from: the loop threads' CPU clocks, `/proc/stat` and the
    /// monotonic clock in production; tests hand in their own (the placement tests run on
    /// machines whose processors another job may be using).
    struct Sources: Sendable {
        /// CPU time of loop `index`'s thread so far.
        var loopCPU: @Sendable (_ index: Int) -> UInt64?
        /// The machine's idle processor time so far.
        var idle: @Sendable () -> UInt64?
        var now: @Sendable () -> UInt64

        static func system(_ loops: [ConnectionLoop]) -> Sources {
            Sources(loopCPU: { loops[$0].loop.threadCPUNanoseconds() },
                    idle: { ProcessorIdleTime.read() },
                    now: { SystemFacts.monotonicNanoseconds() })
        }
    }

    private let sources: Sources

    init(loops: [ConnectionLoop], sources: Sources? = nil) {
        self.loops = loops
        self.sources = sources ?? .system(loops)
        readings = Mutex(Readings(governor: LoopGovernor(loopCount: loops.count)))
        timer = DispatchSource.makeTimerSource(queue: queue)
    }

    /// Starts sampling (once; the first sample only takes readings). After `stop`, nothing.
    func start() {
        phase.withLock { phase in
            guard phase == .created else { return }
            phase = .sampling
            timer.setEventHandler { [weak self] in self?.sample() }
            timer.schedule(deadline: .now() + Self.interval, repeating: Self.interval, leeway: .milliseconds(25))
            timer.resume()
        }
    }

    /// Stops sampling for good; placement keeps the last active count.
    func stop() {
        phase.withLock { phase in
            guard phase != .stopped else { return }
            timer.cancel()
            // Dispatch must not release a source that was never resumed.
            if phase == .created { timer.resume() }
            phase = .stopped
        }
    }

    deinit { stop() }

    private func sample() {
        let now = sources.now()
        let loopCPU = loops.indices.map { sources.loopCPU($0) }
        let idle = sources.idle()
        let connections = loops.map { $0.openConnections.load(ordering: .relaxed) }
        let outcome: LoopGovernor.Outcome? = readings.withLock { readings in
            defer {
                readings.at = now
                readings.loopCPU = loopCPU
                readings.idle = idle
            }
            guard readings.at != 0, readings.loopCPU.count == loopCPU.count else { return nil }
            var busy: [UInt64] = []
            for (before, after) in zip(readings.loopCPU, loopCPU) {
                // A loop whose clock cannot be read is taken as busy: better one loop too many.
                guard let before, let after, after >= before else { busy.append(now &- readings.at); continue }
                busy.append(after - before)
            }
            let idleDelta: UInt64? = if let before = readings.idle, let idle, idle >= before { idle - before } else { nil }
            return readings.governor.observe(LoopGovernor.Sample(
                windowNanoseconds: now &- readings.at, loopBusyNanoseconds: busy,
                idleProcessorNanoseconds: idleDelta, connections: connections))
        }
        guard let outcome else { return }
        active.store(outcome.active, ordering: .relaxed)
        // A quota holds for one window: what is not spent by then was not needed (a loop that
        // sees so few requests is not the busy one), and the next decision starts afresh.
        for (index, loop) in loops.enumerated() {
            let wanted = index < outcome.shed.count ? outcome.shed[index] : 0
            if loop.shedQuota.load(ordering: .relaxed) != wanted { loop.shedQuota.store(wanted, ordering: .relaxed) }
        }
    }
}
