/// The state `combineLatest` and `zip` share for one subscription: a recursive lock under
/// which every source's events are handled one at a time (recursive, as in RxSwift, so an
/// observer that makes a source emit synchronously does not deadlock), which sources have
/// completed, and the gate that ends the subscription once.
///
/// The operators keep their sources' elements themselves (typed, in the closures their
/// `@inlinable` functions build, so nothing is boxed or allocated per element) and hand
/// `on(_:from:…)` three closures: store an element, whether a result can be made, make
/// it. Results and stop events reach the observer under the lock; nothing is disposed
/// under it (a source's teardown may take its own locks, as for `merge`).
@usableFromInline
final class CombiningSink<Result>: @unchecked Sendable {
    @usableFromInline let downstream: AnyObserver<Result>
    @usableFromInline let gate: SinkGate
    @usableFromInline let lock = Lock(recursive: true)
    @usableFromInline let arity: Int
    /// Whether the sequence completes when an element arrives, no result can be made, and
    /// every other source has completed (`combineLatest`, and `zip` of a collection, as in
    /// RxSwift); otherwise it completes only once every source has.
    @usableFromInline let completesWhenOthersAreDone: Bool
    // Guarded by `lock`.
    @usableFromInline @exclusivity(unchecked) var isDone: [Bool]
    @usableFromInline @exclusivity(unchecked) var doneCount = 0

    @inlinable
    init(arity: Int, completesWhenOthersAreDone: Bool, downstream: AnyObserver<Result>, cancel: Cancelable) {
        self.arity = arity
        self.completesWhenOthersAreDone = completesWhenOthersAreDone
        self.downstream = downstream
        self.gate = SinkGate(disposing: cancel)
        isDone = Array(repeating: false, count: arity)
    }

    /// Handles an event of source `index`: an element is stored, then a result made and
    /// sent when `ready`; a stop event of the source disposes `subscription` (after the
    /// lock is released) and may end the whole subscription.
    @inlinable
    func on<Value>(
        _ event: Event<Value>, from index: Int, subscription: Disposable,
        store: (Value) -> Void, ready: () -> Bool, result: () throws -> Result
    ) {
        lock.lock()
        if gate.isClosed {
            lock.unlock()
            return
        }
        var ended = false
        var sourceEnded = false
        switch event {
        case .next(let value):
            store(value)
            if ready() {
                do {
                    downstream.on(.next(try result()))
                } catch {
                    ended = gate.sendStop(.error(error), to: downstream)
                }
            } else if completesWhenOthersAreDone && doneCount - (isDone[index] ? 1 : 0) == arity - 1 {
                ended = gate.sendStop(.completed, to: downstream)
            }
        case .error(let error):
            sourceEnded = true
            ended = gate.sendStop(.error(error), to: downstream)
        case .completed:
            sourceEnded = true
            if !isDone[index] {
                isDone[index] = true
                doneCount += 1
                if doneCount == arity { ended = gate.sendStop(.completed, to: downstream) }
            }
        }
        lock.unlock()
        if sourceEnded { subscription.dispose() }
        if ended { gate.dispose() }
    }

    /// Subscribes to each of `sources` in order (a collection's form): `store` keeps an
    /// element of the source at the index it is given. Returns what disposes them all.
    @inlinable
    func subscribe<Value>(
        _ sources: [Observable<Value>], store: @escaping (Int, Value) -> Void, ready: @escaping () -> Bool,
        result: @escaping () throws -> Result
    ) -> Disposable {
        let subscriptions = sources.map { _ in SingleAssignmentDisposable() }
        for (index, source) in sources.enumerated() {
            let subscription = subscriptions[index]
            subscription.setDisposable(
                source.subscribe(
                    ClosureObserver { event in
                        self.on(event, from: index, subscription: subscription, store: { store(index, $0) }, ready: ready, result: result)
                    }))
        }
        return CompositeDisposable(disposables: subscriptions)
    }

    /// No source at all: `result` (of no elements) if given, then completion.
    @inlinable
    func runWithoutSources(result: (() throws -> Result)?) {
        lock.lock()
        var ended: Bool
        do {
            if let result { downstream.on(.next(try result())) }
            ended = gate.sendStop(.completed, to: downstream)
        } catch {
            ended = gate.sendStop(.error(error), to: downstream)
        }
        lock.unlock()
        if ended { gate.dispose() }
    }

}
