/// A class of broken guarantee a stress scenario checks. The raw values are stable: they
/// are `stress.csv`'s `name` for violation rows.
package enum ViolationKind: String, Codable, Sendable, CaseIterable, Comparable {
    /// An element or event that was sent (or enqueued) never arrived.
    case lost
    /// An element or event arrived twice.
    case duplicate
    /// Elements arrived out of the order a guarantee promises (per producer, per caller, the model's).
    case reorder
    /// Delivered after `dispose()` returned where the contract forbids it, or a disposed action ran.
    case afterDispose = "after_dispose"
    /// Something the core had released was used: an observer called, or still running,
    /// after its subject let go of it.
    case useAfterRelease = "use_after_release"
    /// Two calls to one observer overlapped.
    case overlap
    /// An action ran inside another action of the same scheduler.
    case reentrant
    /// The Observable grammar `next* (error | completed)?` broken: two stop events, or one not last.
    case grammar
    /// Core objects (`Resources.total`) or enqueued work (`pendingCount`) not back to their baseline.
    case leak
    /// A disposal (or an action) ran somewhere other than where its contract says: off the
    /// scheduler `subscribe(on:)` must dispose its source on.
    case wrongSite = "wrong_site"
    /// More work running at once than a limit allows (`merge(maxConcurrent:)`'s sources).
    case overLimit = "over_limit"
    /// A periodic tick that was due never ran.
    case lostTick = "lost_tick"
    /// More periodic ticks ran than periods had passed (a tick ahead of its period).
    case extraTick = "extra_tick"
    /// A timed action (`scheduleRelative`, a periodic schedule's tick) ran before its due time.
    case early
    /// No progress for the hang timeout: threads stuck (the watchdog's report names their last stress points).
    case hang
    /// The process running the scenario died (a signal, a trap).
    case crash

    package static func < (lhs: ViolationKind, rhs: ViolationKind) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// One broken guarantee, as first seen: the iteration that saw it and what happened.
package struct StressViolation: Codable, Sendable, Equatable {
    package var kind: ViolationKind
    package var iteration: Int
    package var detail: String

    package init(kind: ViolationKind, iteration: Int, detail: String) {
        self.kind = kind
        self.iteration = iteration
        self.detail = detail
    }
}

/// Whether an observed outcome of a race is allowed (jcstress's classes).
package enum OutcomeClass: String, Codable, Sendable {
    case acceptable
    case forbidden
}

/// One row of an outcome table: how often a scenario saw one result of a race.
package struct StressOutcome: Codable, Sendable, Equatable {
    package var name: String
    package var outcomeClass: OutcomeClass
    package var count: Int

    package init(name: String, outcomeClass: OutcomeClass, count: Int) {
        self.name = name
        self.outcomeClass = outcomeClass
        self.count = count
    }
}
