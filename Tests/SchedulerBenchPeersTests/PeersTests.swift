import Foundation
import RxSchedulers
import XCTest

@testable import SchedulerBench
@testable import SchedulerBenchPeers
@testable import BenchModel

/// The peers, registered as a user's package registers them: each hand-off keeps
/// `HandOff`'s guarantees (serial delivery, once each, each producer's order, nothing after
/// a cancel made inside a delivery), and each scheduler runs actions once, one at a time.
final class PeersTests: XCTestCase {
    private static let registry: Registry = {
        var registry = Registry.builtIns
        Peers.register(in: &registry)
        return registry
    }()

    private let handOffs: [StrategyName] = [.openCombine, .asyncChannel, StrategyName("nioExecute")]

    func testThePeersRegisterThroughThePublicAPI() {
        for name in handOffs {
            XCTAssertEqual(Self.registry.strategy(name)?.axis, .peer, name.rawValue)
            XCTAssertTrue(Self.registry.handOffs.contains(name), name.rawValue)
        }
        for name in ["nioEventLoop", "executorActor"] {
            XCTAssertEqual(Self.registry.scheduler(SchedulerName(name))?.contracts, [.serial], name)
        }
    }

    /// With the peers registered (as in schedbench-builtins), the quick suite measures
    /// latency through one peer framework beside the tuned strategy.
    func testTheQuickSuiteMeasuresLatencyThroughAPeer() {
        Registry.install(Self.registry)
        defer { Registry.install(Registry.builtIns) }
        let latency = RunPlan(suite: .quick).expand().cases.filter { $0.workload == .observeOnLatency }
        XCTAssertEqual(latency.map { "\($0.scheduler)/\($0.strategy)" }, ["serial/drain", "none/openCombine"])
    }

    func testEachHandOffDeliversEachProducersItemsOnceInOrderAndSerially() throws {
        for strategy in handOffs {
            let problems = try HandOffChecks.deliversEachProducersItemsOnceInOrderAndSerially { try XCTUnwrap(try Self.registry.startHandOff(strategy, deliver: $0)) }
            XCTAssertEqual(problems, [], "\(strategy)")
        }
    }

    /// A cancel from inside the 100th delivery, thousands more queued: none arrives, the
    /// producer is not left blocked, and `finish` returns.
    func testACancelInsideADeliveryStopsEachHandOff() throws {
        for strategy in handOffs {
            let problems = try HandOffChecks.stopsAtACancelInsideADelivery { try XCTUnwrap(try Self.registry.startHandOff(strategy, deliver: $0)) }
            XCTAssertEqual(problems, [], "\(strategy)")
        }
    }

    func testEachSchedulerRunsActionsOnceAndOneAtATime() {
        for name in ["nioEventLoop", "executorActor"] {
            let scheduler = Self.registry.scheduler(SchedulerName(name))!.instance(strategy: .none)
            let state = Counter()
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                for _ in 0..<250 {
                    _ = scheduler.schedule(()) { _ in
                        if state.enter() == 1_000 { done.signal() }
                        return Disposables.create()
                    }
                }
            }
            XCTAssertEqual(done.wait(timeout: .now() + 30), .success, name)
            XCTAssertEqual(state.overlaps, 0, "\(name): actions overlapped")
        }
    }


    /// Counts runs and notices two at once.
    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var inside = false
        private(set) var overlaps = 0
        private var runs = 0

        func enter() -> Int {
            lock.lock()
            if inside { overlaps += 1 }
            inside = true
            lock.unlock()
            usleep(1)
            lock.lock()
            inside = false
            runs += 1
            let count = runs
            lock.unlock()
            return count
        }
    }
}
