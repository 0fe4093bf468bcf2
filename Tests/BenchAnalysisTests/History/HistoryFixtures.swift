import Foundation

@testable import BenchAnalysis
@testable import BenchModel
@testable import BenchChild
import BenchTestSupport

/// Runs to store: a provenance on a chosen testbed and time, and cases with trials whose
/// ns/event are given.
enum HistoryFixtures {
    static func provenance(_ runID: String, minute: Int, cpu: String = "Test CPU", build: String = "release") -> Provenance {
        Provenance(
            runID: runID, timestamp: String(format: "2026-11-01T10:%02d:00Z", minute), host: "runner-1", cpu: cpu, cores: 2,
            os: "Debian", swift: "6.3.1", commit: "c\(minute)", build: build, kernel: "6.1.0", governor: "none", cpuLimit: "none",
            loadAverage: "0.10")
    }

    static func benchCase(_ scheduler: SchedulerName = .serial, producers: Int = 1, suite: String = "quick") -> BenchCase {
        BenchCase(
            suite: suite, workload: .observeOnThroughput, scheduler: scheduler, strategy: .drain, producers: producers, events: 1_000,
            payloadBytes: 0, rateHz: 0)
    }

    static func result(_ benchCase: BenchCase, nanos: [Double]) -> CaseResult {
        CaseResult(
            benchCase: benchCase,
            trials: nanos.enumerated().map { index, value in
                TrialRecord(benchCase: benchCase, trial: index + 1, metrics: [.nsPerEvent: value, .eventsPerSec: 1e9 / value])
            })
    }
}

/// Errors collected from concurrent writers.
final class ErrorList: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [any Error] = []
    func append(_ error: any Error) { lock.withLock { errors.append(error) } }
    var all: [any Error] { lock.withLock { errors } }
}
