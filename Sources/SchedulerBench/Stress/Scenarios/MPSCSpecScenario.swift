import BenchModel
import CSpinHint
import Foundation
import RxSchedulers
import Synchronization

/// `mpsc.spec`: `MPSCQueue` against a sequential FIFO specification.
///
/// Each iteration starts 1–4 producers and one consumer on threads of their own. Producers
/// enqueue `(producer, sequence)`. Half the iterations mix random counts and pauses; the
/// other half race producers across a chunk boundary, where the queue's one subtle wait
/// is (`boundaryRace(_:)`). The consumer dequeues concurrently. The history must satisfy the specification:
/// - per-producer order: a producer's elements come out in the order it put them in
///   (`reorder`);
/// - nothing twice (`duplicate`);
/// - nothing lost: once every `enqueue` has returned, `dequeue` returns nil only when every
///   element has come out (`lost`);
/// - every `enqueue` returns (`hang`, by the watchdog).
final class MPSCSpecScenario: CataloguedStressScenario {
    static let name = StressScenarioName.mpscSpec
    static let summary =
        "MPSCQueue: random producers and pauses, history checked against a FIFO spec (per-producer order, no loss or duplicate)"
    static let checks: [ViolationKind] = [.lost, .duplicate, .reorder, .hang, .crash]

    func run(_ iteration: StressIteration) {
        var random = iteration.random
        let plan = random.chance(0.5) ? Self.boundaryRace(&random) : Self.mixed(&random)
        let producers = plan.counts.count
        let queue = MPSCQueue<Int>()
        let finishedProducers = SharedCounter()
        let prefilled = SharedFlag()
        let history = History(counts: plan.counts)

        iteration.concurrently(producers + 1, name: "mpsc") { thread, random in
            if thread == producers {
                Self.consume(queue, history, finishedProducers, producers, iteration)
                return
            }
            if plan.prefill > 0 && thread != 0 {
                // Wait for producer 0 to bring the chunk close to full, then race it to the boundary.
                while !prefilled.isSet { rx_spin_hint() }
            }
            for sequence in 0..<plan.counts[thread] {
                if plan.pauseChance > 0, random.chance(plan.pauseChance) { Self.pause(&random) }
                queue.enqueue(thread << 32 | sequence)
                if thread == 0 && sequence + 1 == plan.prefill { prefilled.set() }
            }
            finishedProducers.increment()
        }
        iteration.countOperations(plan.counts.reduce(0, +))
        history.reportMissing(iteration)
    }

    /// One iteration's producers: how many elements each enqueues, how often it pauses,
    /// and (for a boundary race) how many producer 0 enqueues before the others start.
    struct Plan {
        var counts: [Int]
        var pauseChance: Double
        var prefill = 0
    }

    /// 1–4 producers with random counts (half the time ending 1–4 elements past a chunk
    /// boundary) and random pauses.
    static func mixed(_ random: inout StressRandom) -> Plan {
        let producers = random.pick([1, 2, 2, 2, 3, 4])
        var counts = (0..<producers).map { _ in
            random.chance(0.3) ? Int.random(in: 1...300, using: &random) : Int.random(in: 200...2_000, using: &random)
        }
        if random.chance(0.5) {
            let capacity = MPSCQueue<Int>.chunkCapacity
            let total = counts.reduce(0, +)
            let target = (total / capacity + 1) * capacity + Int.random(in: 1...4, using: &random)
            counts[counts.count - 1] += target - total
        }
        return Plan(counts: counts, pauseChance: random.pick([0.0, 1.0 / 512, 1.0 / 64]))
    }

    /// A race at the first chunk boundary: producer 0 fills the first chunk to 1–4 slots
    /// short of full; then 1–3 producers with one element each race it across the boundary,
    /// while it goes on to fill exactly one more chunk. If one element loses the boundary
    /// and waits while producer 0 fills the next chunk, the queue is left with its claims
    /// exactly at the capacity: the state in which a wrong wait condition never returns.
    static func boundaryRace(_ random: inout StressRandom) -> Plan {
        let capacity = MPSCQueue<Int>.chunkCapacity
        let others = Int.random(in: 1...3, using: &random)
        let total = 2 * capacity + 1
        return Plan(
            counts: [total - others] + [Int](repeating: 1, count: others), pauseChance: 0,
            prefill: capacity - Int.random(in: 1...4, using: &random))
    }

    private static func consume(
        _ queue: MPSCQueue<Int>, _ history: History, _ finished: SharedCounter, _ producers: Int, _ iteration: StressIteration
    ) {
        var idle = 0
        var dequeued = 0
        while true {
            if let element = queue.dequeue() {
                history.record(element, iteration)
                idle = 0
                dequeued += 1
                // Progress is what the consumer gets out, not its waiting: a producer stuck
                // in `enqueue` then silences the heartbeat and the watchdog reports a hang.
                if dequeued & 63 == 0 { iteration.beat() }
                continue
            }
            // Every enqueue has returned (acquire pairs with the producers' release), so
            // everything is published: nil from here on means empty.
            if finished.load() == producers {
                while let element = queue.dequeue() { history.record(element, iteration) }
                return
            }
            idle += 1
            if idle & 0xFF == 0 {
                sched_yield()
            } else {
                rx_spin_hint()
            }
        }
    }

    private static func pause(_ random: inout StressRandom) {
        if random.chance(0.5) {
            sched_yield()
        } else {
            for _ in 0..<(random.next() % 5_000) { rx_spin_hint() }
        }
    }

    /// What the consumer has seen, per producer (consumer thread only).
    private final class History: @unchecked Sendable {
        var seen: [[Bool]]
        var next: [Int]
        var reported = 0

        init(counts: [Int]) {
            seen = counts.map { [Bool](repeating: false, count: $0) }
            next = counts.map { _ in 0 }
        }

        func record(_ element: Int, _ iteration: StressIteration) {
            let producer = element >> 32
            let sequence = element & 0xFFFF_FFFF
            guard producer < seen.count, sequence < seen[producer].count else {
                iteration.violation(.duplicate, "dequeued \(producer):\(sequence), which no producer enqueued")
                return
            }
            if seen[producer][sequence] {
                iteration.violation(.duplicate, "producer \(producer)'s element \(sequence) dequeued twice")
                return
            }
            seen[producer][sequence] = true
            if sequence < next[producer] {
                iteration.violation(.reorder, "producer \(producer)'s element \(sequence) dequeued after its element \(next[producer] - 1)")
            }
            next[producer] = max(next[producer], sequence + 1)
        }

        func reportMissing(_ iteration: StressIteration) {
            for (producer, flags) in seen.enumerated() {
                let missing = flags.indices.filter { !flags[$0] }
                if let first = missing.first {
                    iteration.violation(
                        .lost,
                        "dequeue returned nil with \(missing.count) of producer \(producer)'s \(flags.count) elements never dequeued (first: \(first))"
                    )
                }
            }
        }
    }
}
