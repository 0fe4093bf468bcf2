import BenchModel
import Foundation
import RxSchedulers

/// `trampoline.tree`: random nested schedule trees on `CurrentThreadScheduler`, checked
/// against a model of RxSwift's trampoline.
///
/// The model: the outermost action runs at once; an action scheduled while one runs is
/// queued, and the queue runs in FIFO order after the running action returns, skipping
/// actions disposed meanwhile; a `scheduleRecursive` chain queues each next step when the
/// step asks for it, and disposing the chain skips the steps left. Trees are generated
/// while the model runs them (each action's operations — schedule a child, dispose an
/// earlier action, start a recursive chain — are drawn when the model reaches it), then
/// the real trampoline runs the same operations on 1–3 threads at once (one trampoline
/// each). The order the real actions ran in must equal the model's: a disposed action
/// that ran is `after_dispose`, a missing one `lost`, one run twice `duplicate`, any other
/// difference `reorder`.
///
/// Half the trees are shaped where the trampoline's queue changes chunks: their root queues
/// exactly k·C − 1, k·C or k·C + 1 actions (C the queue's slots per chunk, k 1–3) behind
/// itself, sometimes with a recursive chain first, so that the chain's steps and the
/// children's own schedules land on either side of a chunk boundary; random trees almost
/// never queue exactly a chunk's worth.
///
/// Before its tree, each thread runs a burst of its own and keeps the handles of the
/// actions it queued; the tree disposes some of these stale handles. Their actions have
/// run, so in the model that changes nothing; a trampoline that reused their slots while
/// the handles were held would cancel the tree's actions queued there (`lost`).
final class TrampolineTreeScenario: CataloguedStressScenario {
    static let name = StressScenarioName.trampolineTree
    static let summary =
        "random nested schedule trees (with disposals) on CurrentThreadScheduler against a model of RxSwift's trampoline"
    static let checks: [ViolationKind] = [.lost, .duplicate, .reorder, .afterDispose, .hang, .crash]

    enum Operation {
        case schedule(Int)
        case dispose(Int)
        case chain(Int, steps: [Int])
        /// Dispose the handle of the earlier burst's action with this index.
        case disposeStale(Int)
    }

    /// Actions in the burst each thread runs before its tree (their handles go stale).
    static let staleBurst = 40

    /// A generated tree: each unit's operations, and the order the model runs units in.
    struct Tree {
        var operations: [Int: [Operation]] = [:]
        var order: [Int] = []
        var disposed: Set<Int> = []
    }

    func run(_ iteration: StressIteration) {
        let threads = Int.random(in: 1...3, using: &iteration.random)
        let trees = (0..<threads).map { thread -> Tree in
            var random = iteration.stream(100 + thread)
            guard random.chance(0.5) else { return Self.generate(&random, size: Int.random(in: 1...120, using: &random)) }
            let fanOut = Int.random(in: 1...3, using: &random) * CurrentThreadScheduler.queueChunkCapacity + Int.random(in: -1...1, using: &random)
            return Self.generate(&random, size: fanOut + Int.random(in: 1...60, using: &random), rootFanOut: fanOut)
        }
        iteration.concurrently(threads, name: "trampoline") { thread, _ in
            let tree = trees[thread]
            let ran = Self.execute(tree)
            Self.compare(ran, tree, thread: thread, iteration)
            iteration.countOperations(tree.order.count)
        }
    }

    /// Generates a tree by running the model: units are numbered as they are scheduled.
    /// With `rootFanOut`, the root queues exactly that many actions (one of them may be a
    /// recursive chain's first step, queued before the rest); the others' operations are
    /// drawn as usual.
    static func generate(_ random: inout StressRandom, size: Int, rootFanOut: Int? = nil) -> Tree {
        var tree = Tree()
        var nextID = 1
        var queue: [Int] = []
        var scheduled: [Int] = []
        // Steps of chains: step → (chain, index in chain, following step).
        var chainOf: [Int: Int] = [:]
        var nextStep: [Int: Int] = [:]

        func runUnit(_ unit: Int) {
            tree.order.append(unit)
            if let following = nextStep[unit] {
                // A chain step asks for its next step (the chain's own operation list is empty).
                queue.append(following)
                return
            }
            guard chainOf[unit] == nil else { return }
            var operations: [Operation] = []
            let shaped = unit == 0 ? rootFanOut : nil
            let count = shaped ?? (nextID < size ? Int.random(in: 0...3, using: &random) : 0)
            for position in 0..<count {
                // The shaped root queues exactly `count` actions: schedules, or a chain first.
                let draw = shaped == nil ? random.next() % 12 : position == 0 && random.chance(0.5) ? 8 : 0
                if draw >= 10 {
                    operations.append(.disposeStale(Int(random.next() % UInt64(staleBurst))))
                } else if draw < 6 || (draw < 8 && scheduled.isEmpty) {
                    let child = nextID
                    nextID += 1
                    operations.append(.schedule(child))
                    queue.append(child)
                    scheduled.append(child)
                } else if draw < 8 {
                    let target = random.pick(scheduled)
                    operations.append(.dispose(target))
                    tree.disposed.insert(target)
                } else {
                    let chain = nextID
                    let length = Int.random(in: 1...4, using: &random)
                    let steps = (0..<length).map { nextID + 1 + $0 }
                    nextID += 1 + length
                    for (index, step) in steps.enumerated() {
                        chainOf[step] = chain
                        if index + 1 < steps.count { nextStep[step] = steps[index + 1] }
                    }
                    operations.append(.chain(chain, steps: steps))
                    queue.append(steps[0])
                    scheduled.append(chain)
                }
            }
            tree.operations[unit] = operations
        }

        runUnit(0)
        while !queue.isEmpty {
            let unit = queue.removeFirst()
            if tree.disposed.contains(unit) || chainOf[unit].map(tree.disposed.contains) == true { continue }
            runUnit(unit)
        }
        return tree
    }

    /// Runs `tree` on this thread's trampoline; returns the units in the order they ran.
    static func execute(_ tree: Tree) -> [Int] {
        final class Run {
            var ran: [Int] = []
            var handles: [Int: Disposable] = [:]
            var stale: [Disposable] = []
        }
        let run = Run()
        let scheduler = CurrentThreadScheduler.instance
        _ = scheduler.schedule(()) { _ in
            for _ in 0..<staleBurst {
                run.stale.append(scheduler.schedule(()) { _ in Disposables.create() })
            }
            return Disposables.create()
        }

        func perform(_ unit: Int) {
            run.ran.append(unit)
            for operation in tree.operations[unit] ?? [] {
                switch operation {
                case .schedule(let child):
                    run.handles[child] = scheduler.schedule(child) { child in
                        perform(child)
                        return Disposables.create()
                    }
                case .dispose(let target):
                    run.handles[target]?.dispose()
                case .disposeStale(let index):
                    run.stale[index].dispose()
                case .chain(let chain, let steps):
                    run.handles[chain] = scheduler.scheduleRecursive(0) { index, recurse in
                        run.ran.append(steps[index])
                        if index + 1 < steps.count { recurse(index + 1) }
                    }
                }
            }
        }
        _ = scheduler.schedule(0) { root in
            perform(root)
            return Disposables.create()
        }
        return run.ran
    }

    static func compare(_ ran: [Int], _ tree: Tree, thread: Int, _ iteration: StressIteration) {
        guard ran != tree.order else { return }
        var seen = Set<Int>()
        for (index, unit) in ran.enumerated() {
            if !seen.insert(unit).inserted {
                iteration.violation(.duplicate, "thread \(thread): unit \(unit) ran twice (position \(index))")
                return
            }
            guard index < tree.order.count, unit == tree.order[index] else {
                if !tree.order.contains(unit) {
                    iteration.violation(.afterDispose, "thread \(thread): unit \(unit) ran, but it was disposed before its turn")
                } else if index < tree.order.count, !ran.contains(tree.order[index]) {
                    iteration.violation(.lost, "thread \(thread): unit \(tree.order[index]) never ran (its turn was position \(index))")
                } else {
                    let expected = index < tree.order.count ? "\(tree.order[index])" : "nothing"
                    iteration.violation(.reorder, "thread \(thread): unit \(unit) ran at position \(index), the model runs \(expected) there")
                }
                return
            }
        }
        iteration.violation(.lost, "thread \(thread): \(tree.order.count - ran.count) units never ran (first: \(tree.order[ran.count]))")
    }
}
