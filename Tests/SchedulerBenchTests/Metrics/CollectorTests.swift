import RxSchedulers
import XCTest

@testable import SchedulerBench
@testable import BenchModel
@testable import BenchChild
import BenchTestSupport

final class CollectorTests: XCTestCase {
    func testLatencyPercentilesOfAKnownDistribution() {
        var recorder = LatencyRecorder()
        for value in 1...1_000 { recorder.record(UInt64(value) * 1_000) }
        let metrics = recorder.metrics
        XCTAssertEqual(metrics[.latencyP50]!, 500_000, accuracy: 500)
        XCTAssertEqual(metrics[.latencyP90]!, 900_000, accuracy: 900)
        XCTAssertEqual(metrics[.latencyP99]!, 990_000, accuracy: 990)
        XCTAssertEqual(metrics[.latencyMax]!, 1_000_000, accuracy: 1_000)
        XCTAssertEqual(recorder.count, 1_000)
    }

    /// A producer due every 1 ms is stalled for 100 ms before event 500. Measured from the
    /// actual send, every event takes 10 µs and the stall vanishes; measured from the
    /// intended send time, the ~100 events held back carry the delay into the tail.
    func testIntendedTimeRecordingShowsAStallThatSendTimeHides() {
        let interval: UInt64 = 1_000_000
        let service: UInt64 = 10_000
        var fromSend = LatencyRecorder()
        var fromIntended = LatencyRecorder()
        var clock: UInt64 = 0
        for index in 0..<1_000 {
            let intended = UInt64(index) * interval
            if index == 500 { clock += 100 * interval }
            let sent = max(clock, intended)
            let completed = sent + service
            clock = completed
            fromSend.record(intended: sent, completed: completed)
            fromIntended.record(intended: intended, completed: completed)
        }
        XCTAssertEqual(Double(fromSend.value(atPercentile: 99)), Double(service), accuracy: 100)
        // The 100 events due during the stall wait 100 ms down to 1 ms: the top 5% wait ≥ 50 ms.
        XCTAssertGreaterThan(fromIntended.value(atPercentile: 99), 80 * interval)
        XCTAssertGreaterThan(fromIntended.value(atPercentile: 95), 45 * interval)
        XCTAssertGreaterThan(fromIntended.max, 99 * interval)
    }

    func testClosedLoopCorrectionBackFillsTheStall() {
        var corrected = LatencyRecorder()
        for _ in 0..<99 { corrected.recordCorrected(1_000, expectedInterval: 1_000_000) }
        corrected.recordCorrected(100_000_000, expectedInterval: 1_000_000)
        // One 100 ms sample at a 1 ms cadence stands for the ~99 requests it held up.
        XCTAssertGreaterThan(corrected.count, 190)
        XCTAssertGreaterThan(corrected.value(atPercentile: 75), 1_000_000)
    }

    func testProcessStatusParsesThreadsAndPeakResidentSize() throws {
        let sample = "Name:\tschedbench\nVmHWM:\t  34492 kB\nVmRSS:\t  30000 kB\nThreads:\t9\n"
        let status = try XCTUnwrap(ProcessStatus.parse(sample))
        XCTAssertEqual(status.threads, 9)
        XCTAssertEqual(status.peakResidentBytes, 34_492 * 1024)
        XCTAssertNil(ProcessStatus.parse("Name:\tx\n"))
        XCTAssertNotNil(ProcessStatus.current())
    }

    func testResourceUsageCountsCPUTime() {
        // Spins until this thread has had 50 ms of processor time by the kernel's own
        // per-thread clock, however long a loaded machine takes to give it.
        func threadCPUSeconds() -> Double {
            var now = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
            return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
        }
        let before = ResourceUsage.current()
        let start = threadCPUSeconds()
        var sink = 0.0
        while threadCPUSeconds() - start < 0.05 { sink += sqrt(sink + 1) }
        let used = ResourceUsage.current() - before
        XCTAssertGreaterThan(used.userSeconds + used.systemSeconds, 0.045, "spun 50 ms of processor time (\(sink))")
    }

    func testThreadSamplerSeesAThreadStartedWhileSampling() {
        let sampler = ThreadSampler(interval: 0.002)
        sampler.start()
        let baseline = ProcessStatus.current()!.threads
        let release = DispatchSemaphore(value: 0)
        let threads = (0..<3).map { _ in Thread { release.wait() } }
        threads.forEach { $0.start() }
        // Until a background sample has seen them (not a fixed time: on a loaded machine the
        // sampler may not run for a while), then the threads end before `stop` samples.
        let deadline = Date().addingTimeInterval(30)
        while sampler.peakSoFar < baseline - 1 + 3 && Date() < deadline { usleep(2_000) }
        for _ in threads { release.signal() }
        for thread in threads { while !thread.isFinished && Date() < deadline { usleep(1_000) } }
        XCTAssertGreaterThanOrEqual(sampler.peakSoFar, baseline - 1 + 3, "a background sample saw the three threads")
        XCTAssertGreaterThanOrEqual(sampler.stop(), baseline - 1 + 3)
    }

    func testAllocationSnapshotsCountOnlyWhenExact() throws {
        // The test process keeps jemalloc's thread caches on, so it must not claim exact counts.
        XCTAssertFalse(AllocationCounter.isExact)
    }

    func testProvenanceDescribesThisMachine() {
        let provenance = Provenance.current()
        XCTAssertEqual(provenance.columnValues.count, Provenance.columns.count)
        XCTAssertFalse(provenance.host.isEmpty)
        XCTAssertGreaterThan(provenance.cores, 0)
        XCTAssertTrue(provenance.os.contains("kernel"))
        XCTAssertTrue(["debug", "release"].contains(provenance.build))
        XCTAssertNotEqual(Provenance.current().runID, "")
    }
}
