import BenchModel
import Foundation
import RxSchedulers
import RxSchedulersCocoa
import Synchronization

/// `pipeline.loading`: the loading screen, N loads in a row, written with `Driver` as
/// RxSwift apps write it. Each load races the data (ready after 1, 3 or 8 ms, in turn, on
/// the background scheduler) against a spinner shown after 5 ms: amb(data, timer(5 ms) →
/// spinner, then the data again after a 10 ms minimum spinner time via
/// delaySubscription), as a driver (`asDriver`: the hop to the main queue is the
/// driver's, so the case has no observe(on:) strategy of its own: `none`) that the screen
/// `drive`s. Latency: subscribe → first content on screen. Checks each load shows content exactly once, never a
/// spinner after content, and completes. Reports what the screen did: the share of loads
/// that showed the spinner (`spinner_shown`), how many took the spinner down sooner than
/// its minimum time after it appeared on screen (`spinner_min_violations`), and how many
/// times each load subscribed to the data source (`source_subscriptions`: twice when the
/// spinner won the race, since amb cancels the first request and concat starts another).
struct PipelineLoading: Workload {
    let name = WorkloadName.pipelineLoading
    let summary = "Driver: amb(data, timer → spinner → concat(delaySubscription(data))) → asDriver → drive; time to first content"
    let unsupportedReason = "the data and timers need a background scheduler that schedules in time (OperationQueueScheduler, as in RxSwift, cannot)"
    let axes: Set<Axis> = []
    let defaultEvents = 100
    static let dataLatenciesMs = [1, 3, 8]
    static let spinnerAfter = RxTimeInterval.milliseconds(5)
    static let minimumSpinnerMs = 10
    static let minimumSpinner = RxTimeInterval.milliseconds(minimumSpinnerMs)

    init() {}

    /// Every registered background scheduler that schedules in time (not the main queue's:
    /// the pipeline's own main scheduler is there), in its one way: the driver's hop.
    func strategies(on scheduler: RegisteredScheduler) -> [StrategyName] {
        scheduler.isTimed && !scheduler.usesMainQueue && !scheduler.isVirtualTime ? [.none] : []
    }

    enum Screen { case loading, content }

    func runTrial(_ benchCase: BenchCase, invariants: InvariantReport, checking: Bool) throws -> TrialOutcome {
        let background = try Registry.current.requireScheduler(benchCase.scheduler).timedInstance()
        var latency = LatencyRecorder()
        let timeout: TimeInterval = 10
        var loaded = 0
        var spinnersShown = 0
        var spinnerMinViolations = 0
        let sourceSubscriptions = Atomic<Int>(0)
        let minimumSpinnerNanos = UInt64(Self.minimumSpinnerMs) * 1_000_000

        let start = MonotonicClock.now()
        for load in 0..<benchCase.events {
            let dataLatency = RxTimeInterval.milliseconds(Self.dataLatenciesMs[load % Self.dataLatenciesMs.count])
            let content = Observable.just(Screen.content).delaySubscription(dataLatency, scheduler: background)
                .do(onSubscribe: { sourceSubscriptions.add(1, ordering: .relaxed) })
            let spinnerFirst = Observable<Int>.timer(Self.spinnerAfter, scheduler: background)
                .map { _ in Screen.loading }
                .concat(content.delaySubscription(Self.minimumSpinner, scheduler: background))
            let finished = DispatchSemaphore(value: 0)
            let screen = LoadingScreen()
            let subscribedAt = MonotonicClock.now()
            let screenDriver = Observable.amb([content, spinnerFirst])
                .asDriver(onErrorRecover: { error in
                    invariants.record("load \(load) failed: \(error)")
                    return .empty()
                })
            // `drive` is called on the main thread, as it requires.
            let subscription = MainQueue.sync {
                screenDriver.drive(
                    onNext: { shown in screen.show(shown, at: MonotonicClock.now()) },
                    onCompleted: { finished.signal() }
                )
            }
            let completed = finished.wait(seconds: timeout, orReport: invariants, "load \(load) never completed")
            subscription.dispose()
            guard completed else { break }
            if checking, let problem = screen.problem { invariants.record("load \(load): \(problem)") }
            if let contentAt = screen.contentAt {
                latency.record(intended: subscribedAt, completed: contentAt)
                loaded += 1
            }
            if let spinnerAt = screen.spinnerAt {
                spinnersShown += 1
                if let contentAt = screen.contentAt, contentAt - spinnerAt < minimumSpinnerNanos { spinnerMinViolations += 1 }
            }
        }
        let end = MonotonicClock.now()
        let loads = Double(max(loaded, 1))
        return TrialOutcome(
            elapsedNanos: end - start, operations: loaded, latency: latency,
            metrics: [
                .spinnerShown: Double(spinnersShown) / loads,
                .spinnerMinViolations: Double(spinnerMinViolations),
                .sourceSubscriptions: Double(sourceSubscriptions.load(ordering: .relaxed)) / loads,
            ])
    }
}

/// What one load put on screen (main queue only; read after it completed).
final class LoadingScreen: @unchecked Sendable {
    private(set) var contentAt: UInt64?
    private(set) var spinnerAt: UInt64?
    private(set) var problem: String?

    func show(_ screen: PipelineLoading.Screen, at time: UInt64) {
        switch screen {
        case .loading where contentAt != nil:
            problem = "spinner shown after content"
        case .loading where spinnerAt != nil:
            problem = "spinner shown twice"
        case .loading:
            spinnerAt = time
        case .content where contentAt != nil:
            problem = "content shown twice"
        case .content:
            contentAt = time
        }
    }
}
