import BenchModel
import CProcess
import CSpinHint
import Foundation
import RxSchedulers
import Synchronization

/// Perturbs threads at the core's stress points (`StressPoint`), and remembers each
/// thread's last point for the watchdog's hang report.
///
/// Each iteration gets a plan from its seed (`Plan`): which points are "hot", how often a
/// thread passing a hot point is perturbed, and how (a yield, a spin of up to a few
/// microseconds, or a sleep of up to 200 µs). A thread draws its decisions from its own
/// generator, seeded from the iteration's seed and the order in which threads first reach
/// a point in that iteration; so a scenario's own threads replay their decisions, while
/// dispatch's worker threads (whose arrival order varies) draw from the same family of
/// streams.
///
/// Cost at a point: a pthread-key read and a few relaxed loads; perturbation itself is
/// the point. Without the `StressHooks` trait nothing calls it.
package enum Perturbation {
    /// One iteration's perturbation plan.
    struct Plan: Sendable, Equatable {
        /// Bit `n` set: `StressPoint(rawValue: n)` is perturbed.
        var hotPoints: UInt32
        /// A hot point perturbs when a draw falls below this (out of 2^64).
        var threshold: UInt64

        static let off = Plan(hotPoints: 0, threshold: 0)

        /// A random plan, broad or focused, with a rate of 0, 1/256, 1/32 or 1/4 per pass.
        /// Broad (three iterations in four): each point of `mask` hot with probability one half.
        /// Focused: the points of one component (those whose names share their first word:
        /// every `emission…` point of merge's serializer, every `batch…` point of batched
        /// dispatch), the component drawn through one of its points; when `mask` leaves all
        /// of them out, the broad set instead. Both kinds are needed
        /// (`POINTS=1 scripts/stress-catalogue.sh`): a lost wake-up of the batched dispatch
        /// was caught with its exit point alone and missed with every point hot, whose other
        /// delays thin out the race; a `share` reordering was caught only with points of
        /// several components hot at once. The draws are the same whatever the mask: a limited
        /// run makes the unlimited one's choices (rate, broad or focused), cut to its points.
        static func random(_ random: inout StressRandom, limitedTo mask: UInt32 = .max) -> Plan {
            var broad: UInt32 = 0
            for point in StressPoint.allCases where random.chance(0.5) { broad |= 1 << UInt32(point.rawValue) }
            let rates: [UInt64] = [0, UInt64.max / 256, UInt64.max / 32, UInt64.max / 4]
            let threshold = random.pick(rates)
            let focused = random.chance(0.25)
            let component = Perturbation.component(of: random.pick(StressPoint.allCases))
            let focus = StressPoint.allCases.filter { Perturbation.component(of: $0) == component }
                .reduce(0 as UInt32) { $0 | 1 << UInt32($1.rawValue) }
            let hot = focused && focus & mask != 0 ? focus & mask : broad & mask
            return Plan(hotPoints: hot, threshold: threshold)
        }
    }

    /// A thread that has passed a stress point (or named itself), as the watchdog sees it.
    final class ThreadRecord: @unchecked Sendable {
        let name: String
        let lastPoint = Atomic<Int>(-1)
        let visits = Atomic<Int>(0)
        let exited = Atomic<Bool>(false)
        /// Owned by the thread itself.
        var random = StressRandom(seed: 0)
        var epoch: UInt64 = .max

        init(name: String) { self.name = name }
    }

    // The current plan, read by every thread at every point. Separate atomics: a thread
    // that reads a new epoch with the old plan perturbs a little more or less, harmlessly.
    private static let epoch = Atomic<UInt64>(0)
    private static let seed = Atomic<UInt64>(0)
    private static let hotPoints = Atomic<UInt32>(0)
    private static let threshold = Atomic<UInt64>(0)
    private static let arrivals = Atomic<Int>(0)
    // NSLock rather than `Mutex`: ThreadSanitizer sees pthread locks, not Mutex's futex.
    private static let registryLock = NSLock()
    nonisolated(unsafe) private static var records: [ThreadRecord] = []
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { pointer in
            guard let pointer else { return }
            let record = Unmanaged<ThreadRecord>.fromOpaque(pointer).takeRetainedValue()
            record.exited.store(true, ordering: .relaxed)
        }
        precondition(status == 0, "pthread_key_create failed with \(status)")
        return key
    }()

    /// The names `--points` takes, with what each point is: every stress point of the core.
    package static var points: [(name: String, summary: String)] { StressPoint.allCases.map { (String(describing: $0), $0.summary) } }

    /// The component a point belongs to: the first word of its name (`emission`, `batch`,
    /// `queue`, `actionQueue` reads as `action`).
    static func component(of point: StressPoint) -> String {
        String(String(describing: point).prefix { !$0.isUppercase })
    }

    /// The hot-point mask of `names` (nil: every point); names are checked by the caller.
    static func mask(_ names: [String]?) -> UInt32 {
        guard let names else { return .max }
        return StressPoint.allCases.filter { names.contains(String(describing: $0)) }.reduce(0) { $0 | 1 << UInt32($1.rawValue) }
    }

    /// Routes the core's stress points here (a no-op without the trait), until `uninstall()`.
    static func install() {
        _ = key
        StressHooks.install { raw in Perturbation.visit(raw) }
    }

    /// Stops routing the core's stress points here: code that runs after a stress run
    /// (other tests in the same process) passes them untouched.
    static func uninstall() {
        StressHooks.install(nil)
    }

    /// Starts an iteration: its plan, and a fresh family of thread streams from `seed`.
    static func begin(_ plan: Plan, seed: UInt64) {
        self.seed.store(seed, ordering: .relaxed)
        hotPoints.store(plan.hotPoints, ordering: .relaxed)
        threshold.store(plan.threshold, ordering: .relaxed)
        arrivals.store(0, ordering: .relaxed)
        epoch.wrappingAdd(1, ordering: .releasing)
    }

    /// Stops perturbing (between iterations and after a run).
    static func end() {
        hotPoints.store(0, ordering: .relaxed)
        threshold.store(0, ordering: .relaxed)
    }

    /// Starts a new scenario's report: forgets threads that exited and zeroes the visits of
    /// the rest (a thread that passes no point in this scenario is then left out).
    static func resetRegistry() {
        registryLock.withLock {
            records.removeAll { $0.exited.load(ordering: .relaxed) }
            for record in records { record.visits.store(0, ordering: .relaxed) }
        }
    }

    /// Names the calling thread in hang reports (scenario threads call this first).
    static func nameThisThread(_ name: String) {
        if let pointer = pthread_getspecific(key) {
            Unmanaged<ThreadRecord>.fromOpaque(pointer).release()
        }
        let record = ThreadRecord(name: name)
        pthread_setspecific(key, Unmanaged.passRetained(record).toOpaque())
        registryLock.withLock { records.append(record) }
    }

    /// What each thread that passed a point did last, for a hang report; threads still
    /// alive first.
    static func threadReport() -> [String] {
        registryLock.withLock {
            records.filter { $0.visits.load(ordering: .relaxed) > 0 && !$0.exited.load(ordering: .relaxed) }.map { record in
                let point = StressPoint(rawValue: UInt8(clamping: record.lastPoint.load(ordering: .relaxed))).map(\.summary) ?? "none"
                return "\(record.name): last at \(point) (\(record.visits.load(ordering: .relaxed)) points passed)"
            }
        }
    }

    private static func current() -> ThreadRecord {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<ThreadRecord>.fromOpaque(pointer).takeUnretainedValue()
        }
        var name = [CChar](repeating: 0, count: 64)
        schedbench_describe_current_thread(&name, UInt(name.count))
        let described = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let record = ThreadRecord(name: "thread " + described)
        pthread_setspecific(key, Unmanaged.passRetained(record).toOpaque())
        registryLock.withLock { records.append(record) }
        return record
    }

    private static func visit(_ raw: UInt8) {
        let record = current()
        record.lastPoint.store(Int(raw), ordering: .relaxed)
        record.visits.wrappingAdd(1, ordering: .relaxed)
        guard hotPoints.load(ordering: .relaxed) & (1 << UInt32(raw)) != 0 else { return }
        let now = epoch.load(ordering: .acquiring)
        if record.epoch != now {
            record.epoch = now
            let arrival = arrivals.wrappingAdd(1, ordering: .relaxed).oldValue
            record.random = StressRandom(seed: seed.load(ordering: .relaxed) ^ (UInt64(arrival) &* 0x9E37_79B9_7F4A_7C15))
        }
        guard record.random.next() < threshold.load(ordering: .relaxed) else { return }
        perturb(&record.random)
    }

    /// One perturbation: a yield (half the time), a spin of up to ~2,000 spin hints, or a
    /// sleep of 10–200 µs (one time in ten).
    private static func perturb(_ random: inout StressRandom) {
        let draw = random.next() % 10
        if draw < 5 {
            sched_yield()
        } else if draw < 9 {
            for _ in 0..<(random.next() % 2_000) { rx_spin_hint() }
        } else {
            usleep(UInt32(10 + random.next() % 190))
        }
    }
}

/// Extra threads that spin for a whole scenario run (`--threads`), so the scenario's own
/// threads get preempted at arbitrary points on a machine with few cores.
final class Spinners: Sendable {
    private let running = Atomic<Bool>(true)
    private let finished = DispatchGroup()

    init(count: Int) {
        for index in 0..<count {
            finished.enter()
            let thread = Thread { [self] in
                var spins = 0
                while running.load(ordering: .relaxed) {
                    rx_spin_hint()
                    spins &+= 1
                    // Yield now and then, so a spinner never starves the scenario for a whole slice.
                    if spins & 0xFFFF == 0 { sched_yield() }
                }
                finished.leave()
            }
            thread.name = "stress.spinner.\(index)"
            thread.start()
        }
    }

    func stop() {
        running.store(false, ordering: .relaxed)
        finished.wait()
    }
}
