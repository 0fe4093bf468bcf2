import Dispatch
import Glibc
import XCTest

@testable import SchedulerBench
import BenchModel
import BenchTestSupport

/// The event loop threads the instruction counter watches: libdispatch's manager thread is
/// listed and a timer's wake-up of it is seen, a thread blocked elsewhere is not listed,
/// and an attempt they disturbed is counted again only when a retry can avoid it.
final class EventLoopThreadsTests: XCTestCase {
    func testASyscallLineGivesTheCallTheThreadIsBlockedIn() {
        XCTAssertEqual(BlockingSyscall.number(inLine: "232 0x3 0x7ffc 0x1 0xffffffff 0x0 0x0 0x7ffc 0x7f12\n"), 232)
        XCTAssertNil(BlockingSyscall.number(inLine: "running\n"))
        XCTAssertNil(BlockingSyscall.number(inLine: "-1 0x7ffc 0x7f12\n"))
        XCTAssertNil(BlockingSyscall.number(inLine: ""))
    }

    /// A dispatch timer makes libdispatch's manager thread wait in `epoll`, and a timer's
    /// firing wakes it: a listing taken before a 20 ms timer shows a listed thread ran.
    /// Other threads may wait in `epoll` too (an event loop of another test), and the
    /// manager is missed by a listing taken while it runs, so the check is tried up to
    /// ten times; `idle` remembers the manager once it has seen it.
    func testTheDispatchManagerIsListedAndATimerWakesIt() throws {
        let armed = DispatchSource.makeTimerSource(queue: .global())
        armed.schedule(deadline: .now() + 3_600)
        armed.setEventHandler {}
        armed.resume()
        defer { armed.cancel() }

        var sawRun = false
        var listedAny = false
        for _ in 0..<10 where !sawRun {
            let listed = EventLoopThreads.idle(timeout: 2)
            listedAny = listedAny || !listed.cpuTimes.isEmpty
            let fired = DispatchSemaphore(value: 0)
            let timer = DispatchSource.makeTimerSource(queue: .global())
            timer.schedule(deadline: .now() + .milliseconds(20))
            timer.setEventHandler { fired.signal() }
            timer.resume()
            XCTAssertEqual(fired.wait(timeout: .now() + 30), .success, "the timer fired")
            timer.cancel()
            sawRun = listed.anyRan
        }
        XCTAssertTrue(listedAny, "a thread waits in epoll once a dispatch timer is armed")
        XCTAssertTrue(sawRun, "the manager ran to fire a timer, in one of ten tries")
    }

    /// A thread blocked on a semaphore (a futex) is no event loop; watched all the same, it
    /// has not run while blocked and has once released.
    func testAThreadBlockedElsewhereIsNotListed() throws {
        let release = DispatchSemaphore(value: 0)
        let tid = Locked<pid_t?>(nil)
        let thread = Thread {
            let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")
            tid.withLock { $0 = link.flatMap { $0.split(separator: "/").last }.flatMap { pid_t($0) } }
            release.wait()
        }
        thread.start()
        defer {
            release.signal()
            let deadline = Date().addingTimeInterval(30)
            while !thread.isFinished && Date() < deadline { usleep(1_000) }
        }
        let deadline = Date().addingTimeInterval(30)
        var blocked: pid_t?
        while blocked == nil && Date() < deadline {
            if let id = tid.withLock({ $0 }), BlockingSyscall.number(ofThread: id) != nil { blocked = id }
            usleep(1_000)
        }
        let id = try XCTUnwrap(blocked, "the thread blocks within 30 s")
        XCTAssertNil(EventLoopThreads.idle(timeout: 0).cpuTimes[id])
        XCTAssertNil(EventLoopThreads.idle(timeout: 0).cpuTimes[getpid()], "nor is the main thread")

        let watched = EventLoopThreads(cpuTimes: [id: try XCTUnwrap(CPUClock(thread: id).nanoseconds)])
        XCTAssertFalse(watched.anyRan, "a blocked thread has not run")
        release.signal()
        while !watched.anyRan && Date() < deadline { usleep(1_000) }
        XCTAssertTrue(watched.anyRan, "once released it has run (or gone) within 30 s")
    }

    /// A thread in an `epoll` wait is listed; a remembered one out of it (running, or
    /// blocked in another call) makes the listing wait; a thread never seen in one does not.
    func testARememberedEventLoopOutOfItsWaitIsBusy() {
        let epoll = EventLoopThreads.epollWaits.first ?? -1
        let futex = 202
        let calls: [pid_t: Int?] = [10: epoll, 11: nil, 12: futex]
        XCTAssertEqual(EventLoopThreads.classify(calls, remembered: []).waiting, [10])
        XCTAssertFalse(EventLoopThreads.classify(calls, remembered: []).busy)
        XCTAssertFalse(EventLoopThreads.classify(calls, remembered: [10]).busy, "back in its wait")
        XCTAssertTrue(EventLoopThreads.classify(calls, remembered: [10, 11]).busy, "running")
        XCTAssertTrue(EventLoopThreads.classify(calls, remembered: [12]).busy, "blocked outside epoll")
    }

    func testAnAttemptIsCountedAgainOnlyWhenARetryCanHelp() {
        let short: UInt64 = 300_000_000
        let long: UInt64 = 1_500_000_000
        XCTAssertTrue(InstructionCounter.keeps(attempt: 1, threadExited: false, eventLoopRan: false, elapsed: short))
        XCTAssertFalse(
            InstructionCounter.keeps(attempt: 1, threadExited: false, eventLoopRan: true, elapsed: short),
            "the monitor woke during a short attempt: the next one can avoid it")
        XCTAssertTrue(
            InstructionCounter.keeps(attempt: 1, threadExited: false, eventLoopRan: true, elapsed: long),
            "a trial longer than the monitor's interval cannot avoid it")
        XCTAssertFalse(InstructionCounter.keeps(attempt: 2, threadExited: true, eventLoopRan: false, elapsed: long))
        XCTAssertTrue(
            InstructionCounter.keeps(attempt: InstructionCounter.attempts, threadExited: true, eventLoopRan: true, elapsed: short),
            "the last attempt counts whatever happened")
    }
}
