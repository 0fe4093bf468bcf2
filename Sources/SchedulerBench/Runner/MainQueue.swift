import Dispatch

/// The main queue, for workload and scenario code: `DispatchQueue.main.async` without the
/// main-actor isolation that the Swift 6 language mode infers for a closure literal passed
/// to it.
///
/// That isolation would spread to every closure the block creates, and each of those,
/// called by the core (compiled in the Swift 5 mode), first checks at run time that it runs
/// on the main actor (SE-0423): about 330 instructions per call, measured in `main.inline`
/// with callgrind — a cost the scheduler under test does not have, added to its figures.
/// `scripts/check-isolation-checks.sh` fails the tests if an engine function checks its
/// executor again.
package enum MainQueue {
    /// Runs `body` on the main queue; `body` and the closures it creates are not isolated to
    /// any actor.
    package static func async(_ body: @escaping @Sendable () -> Void) {
        DispatchQueue.main.async(execute: body)
    }

    /// Runs `body` on the main queue and waits for its result (from a thread other than the
    /// main one); `body` and the closures it creates are not isolated to any actor. For
    /// calls that must be made on the main thread, such as `Driver`'s `drive`.
    package static func sync<Result>(_ body: () -> Result) -> Result {
        DispatchQueue.main.sync(execute: body)
    }
}
