import BenchModel
import Foundation
import RxSchedulers
import Synchronization

/// `subscribeOn.cycle`: N sequential cycles of subscribe(on:) → first element → dispose,
/// each waiting until the disposal has run on the scheduler. Measures cycles per second;
/// checks each cycle delivers exactly one element, and that nothing reaches a cycle's
/// observer once that cycle's dispose() has returned.
struct SubscribeOnCycle: Workload {
    let name = WorkloadName.subscribeOnCycle
    let summary = "subscribe(on:) → first element → dispose, N times in a row; cycles/s"
    let unsupportedReason = "virtual time needs its clock driven; the cycle waits on real threads"
    let axes: Set<Axis> = []
    let defaultEvents = 20_000

    init() {}

    /// Every registered scheduler but virtual time.
    func strategies(on scheduler: RegisteredScheduler) -> [StrategyName] { scheduler.isVirtualTime ? [] : [.none] }

    func runTrial(_ benchCase: BenchCase, invariants: InvariantReport, checking: Bool) throws -> TrialOutcome {
        let scheduler = try Registry.current.requireScheduler(benchCase.scheduler).instance()
        let element = DispatchSemaphore(value: 0)
        let teardown = DispatchSemaphore(value: 0)
        // The last cycle whose dispose() has returned: a delivery to it or an earlier one is late.
        let disposedThrough = Atomic<Int>(-1)
        let source = Observable<Int>.create { observer in
            observer.onNext(1)
            return Disposables.create { teardown.signal() }
        }
        .subscribe(on: scheduler)
        let timeout = trialTimeout(events: benchCase.events, nanosPerEvent: 1_000_000)

        let start = MonotonicClock.now()
        var completed = 0
        for cycle in 0..<benchCase.events {
            var elements = 0
            let subscription = source.subscribe(onNext: { _ in
                if checking && disposedThrough.load(ordering: .acquiring) >= cycle {
                    invariants.record("element of cycle \(cycle) delivered after its dispose returned")
                }
                elements += 1
                element.signal()
            })
            guard element.wait(seconds: timeout, orReport: invariants, "cycle \(cycle) never received its element") else { break }
            subscription.dispose()
            disposedThrough.store(cycle, ordering: .releasing)
            guard teardown.wait(seconds: timeout, orReport: invariants, "cycle \(cycle) was never disposed") else { break }
            if checking && elements != 1 { invariants.record("cycle \(cycle) received \(elements) elements") }
            completed += 1
        }
        let end = MonotonicClock.now()
        return TrialOutcome(elapsedNanos: end - start, operations: completed)
    }
}
