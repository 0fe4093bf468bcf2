import Foundation
import RxSchedulers

/// A sequence whose operators block the calling thread until it ends: RxBlocking's
/// `BlockingObservable`, for tests and command-line tools (never on a thread that must
/// stay responsive). Made by `toBlocking(timeout:)`.
///
/// On the main thread the operators keep running the main run loop while they wait, so
/// work the sequence schedules on the main queue (`MainScheduler`) still runs; on any
/// other thread they sleep on a semaphore. With a `timeout`, a sequence that has not
/// ended by then fails with `RxError.timeout` (and its subscription is disposed).
public struct BlockingObservable<Element> {
    let timeout: TimeInterval?
    let source: Observable<Element>
}

extension ObservableConvertibleType {
    /// The sequence as a ``BlockingObservable`` whose operators wait at most `timeout`
    /// seconds (forever if `nil`).
    public func toBlocking(timeout: TimeInterval? = nil) -> BlockingObservable<Element> {
        BlockingObservable(timeout: timeout, source: asObservable())
    }
}

/// What a blocking sequence ended with: its elements, and the error if it failed.
@frozen
public enum MaterializedSequenceResult<T> {
    /// The sequence completed after these elements.
    case completed(elements: [T])
    /// The sequence failed with `error` after these elements.
    case failed(elements: [T], error: Swift.Error)
}

extension BlockingObservable {
    /// Every element, once the sequence completed; its error is thrown.
    public func toArray() throws -> [Element] {
        try elementsOrThrow(collect())
    }

    /// The first element (the subscription ends there), or `nil` if it completed
    /// without one; its error is thrown.
    public func first() throws -> Element? {
        try elementsOrThrow(collect(upTo: 1)).first
    }

    /// The last element, or `nil` if it completed without one; its error is thrown.
    public func last() throws -> Element? {
        try elementsOrThrow(collect()).last
    }

    /// The one element: `RxError.noElements` if there is none, `RxError.moreThanOneElement`
    /// at a second one.
    public func single() throws -> Element {
        try single { _ in true }
    }

    /// The one element for which `predicate` holds, as `single()`.
    public func single(_ predicate: @escaping (Element) throws -> Bool) throws -> Element {
        let elements = try elementsOrThrow(collect(upTo: 2, where: predicate))
        if elements.count > 1 { throw RxError.moreThanOneElement }
        guard let element = elements.first else { throw RxError.noElements }
        return element
    }

    /// The elements and how the sequence ended, without throwing.
    public func materialize() -> MaterializedSequenceResult<Element> {
        collect()
    }

    private func elementsOrThrow(_ result: MaterializedSequenceResult<Element>) throws -> [Element] {
        switch result {
        case .completed(let elements): return elements
        case .failed(_, let error): throw error
        }
    }

    /// Subscribes and waits until the sequence ends, `limit` elements that satisfy
    /// `predicate` arrived, `predicate` threw, or the timeout passed.
    ///
    /// The subscription is made inside an action of the current thread's trampoline, as
    /// RxBlocking makes it: a source that emits through the trampoline (`of`, `from`,
    /// `range`) then emits after `subscribe` has returned its disposable, so the collection
    /// can stop it after the element that ends it (RxBlocking's `single` calls its predicate
    /// no further). Called inside a trampoline action already (where a new one would only be
    /// queued behind the wait), it subscribes directly; a source that emits through the
    /// trampoline then cannot emit until that action returns, as with RxBlocking.
    private func collect(upTo limit: Int? = nil, where predicate: @escaping (Element) throws -> Bool = { _ in true })
        -> MaterializedSequenceResult<Element>
    {
        let state = CollectedElements<Element>()
        let subscription = SingleAssignmentDisposable()
        let finish = { (error: Swift.Error?) in
            if state.finish(with: error) { subscription.dispose() }
        }
        let subscribe = {
            subscription.setDisposable(
                source.subscribe { event in
                    switch event {
                    case .next(let element):
                        do {
                            guard try predicate(element) else { return }
                        } catch {
                            return finish(error)
                        }
                        if let count = state.append(element), let limit, count >= limit { finish(nil) }
                    case .error(let error):
                        finish(error)
                    case .completed:
                        finish(nil)
                    }
                })
        }
        if CurrentThreadScheduler.isScheduleRequired {
            _ = CurrentThreadScheduler.instance.schedule(()) { _ in
                subscribe()
                return Disposables.create()
            }
        } else {
            subscribe()
        }
        if !state.wait(timeout: timeout) { finish(RxError.timeout) }
        subscription.dispose()
        return state.result
    }
}

/// The elements a blocking operator collected, and the end, shared with the thread that
/// delivers them.
private final class CollectedElements<Element>: @unchecked Sendable {
    private let lock = NSLock()
    private var elements: [Element] = []
    private var error: Swift.Error?
    private var ended = false
    private let endedSignal = DispatchSemaphore(value: 0)

    /// Adds `element` unless the collection ended; returns the count, or `nil` if ended.
    func append(_ element: Element) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard !ended else { return nil }
        elements.append(element)
        return elements.count
    }

    /// Ends the collection (the first call only, which returns `true`).
    func finish(with error: Swift.Error?) -> Bool {
        lock.lock()
        guard !ended else {
            lock.unlock()
            return false
        }
        ended = true
        self.error = error
        lock.unlock()
        endedSignal.signal()
        return true
    }

    /// Waits for the end; `false` if `timeout` passed first. The main thread runs its run
    /// loop meanwhile, so the main queue's work goes on.
    func wait(timeout: TimeInterval?) -> Bool {
        let deadline = timeout.map { Date().addingTimeInterval($0) } ?? .distantFuture
        guard Thread.isMainThread else {
            return endedSignal.wait(timeout: timeout.map { .now() + $0 } ?? .distantFuture) == .success
        }
        while endedSignal.wait(timeout: .now()) != .success {
            if Date() >= deadline { return false }
            _ = RunLoop.main.run(mode: .default, before: min(deadline, Date().addingTimeInterval(0.001)))
        }
        return true
    }

    var result: MaterializedSequenceResult<Element> {
        lock.lock()
        defer { lock.unlock() }
        if let error { return .failed(elements: elements, error: error) }
        return .completed(elements: elements)
    }
}
