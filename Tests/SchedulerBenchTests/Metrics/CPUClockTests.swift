import XCTest

@testable import SchedulerBench
@testable import BenchModel
@testable import BenchChild
import BenchTestSupport

/// The CPU clocks behind `cpu_ns_per_event`: the process's counts every thread's run time,
/// a thread's can be read from another thread, and a trial's CPU time leaves the sampler out.
final class CPUClockTests: XCTestCase {
    /// Spins until this thread has run 20 ms of CPU (not of wall time: on a loaded machine
    /// wall time passes without the thread running); the process clock saw at least that.
    func testTheProcessClockCountsTheCPUTimeOfThisThread() throws {
        let thread = try XCTUnwrap(CPUClock.currentThread())
        let processBefore = try XCTUnwrap(CPUClock.process.nanoseconds)
        let threadBefore = try XCTUnwrap(thread.nanoseconds)
        var sink = 0.0
        while try XCTUnwrap(thread.nanoseconds) - threadBefore < 20_000_000 { sink += sqrt(sink + 1) }
        let processUsed = try XCTUnwrap(CPUClock.process.nanoseconds) - processBefore
        XCTAssertGreaterThanOrEqual(processUsed, 20_000_000, "spun 20 ms of CPU (\(sink))")
        XCTAssertGreaterThanOrEqual(ResourceUsage.current().cpuNanos, processBefore + 20_000_000)
    }

    func testAnotherThreadsClockIsReadableWhileItRunsAndNotAfter() throws {
        let published = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let clock = Locked<CPUClock?>(nil)
        let thread = Thread {
            clock.withLock { $0 = CPUClock.currentThread() }
            published.signal()
            release.wait()
        }
        thread.start()
        published.wait()
        let other = try XCTUnwrap(clock.withLock { $0 })
        XCTAssertNotNil(other.nanoseconds, "a running thread's clock reads")
        XCTAssertNotEqual(other, CPUClock.currentThread(), "each thread has its own clock")
        release.signal()
        let deadline = Date().addingTimeInterval(30)
        while !thread.isFinished && Date() < deadline { usleep(1_000) }
        XCTAssertTrue(thread.isFinished)
    }

    func testTheSamplersOwnCPUTimeIsReadableBetweenStartAndStop() {
        let sampler = ThreadSampler(interval: 0.001)
        XCTAssertEqual(sampler.cpuNanos, 0, "nothing before start")
        sampler.start()
        let first = sampler.cpuNanos
        XCTAssertGreaterThan(first, 0, "the sampler thread has run to publish its clock")
        let deadline = Date().addingTimeInterval(30)
        while sampler.cpuNanos == first && Date() < deadline { usleep(2_000) }
        XCTAssertGreaterThan(sampler.cpuNanos, first, "its samples are CPU time of its own")
        _ = sampler.stop()
    }

    /// A case on one thread: its CPU time per event is positive and no more than its wall
    /// time per event (one thread cannot run longer than the trial took), with room for the
    /// clock reads around the timed region.
    func testATrialOfOneThreadRecordsCPUTimeNoMoreThanItsWallTime() throws {
        let trampoline = BenchCase(
            suite: "test", workload: .trampolineNested, scheduler: .currentThread, strategy: .none, producers: 1, events: 100_000,
            payloadBytes: 0, rateHz: 0)
        var options = RunOptions()
        options.trials = 3
        options.warmup = 1
        options.countAllocations = false
        let result = try CaseRunner(options: options).run(trampoline)
        for trial in result.trials where trial.trial > 0 {
            let cpu = try XCTUnwrap(trial.metrics[.cpuNsPerEvent], "trial \(trial.trial)")
            let wall = try XCTUnwrap(trial.metrics[.nsPerEvent])
            XCTAssertGreaterThan(cpu, 0)
            XCTAssertLessThanOrEqual(cpu, wall * 1.10 + 1, "trial \(trial.trial): \(cpu) ns CPU, \(wall) ns wall per event")
        }
    }
}
