import Synchronization

/// When a sequence of sources moves to the next one: `concat` on completion,
/// `catch(sequence:)` on error.
enum SourceAdvance {
    case completed
    case error
}

/// `concat` and `catch(sequence:)`: the sources from `makeSources`, one after another
/// (`SourceSequenceSink`); each subscription reads the sources afresh.
final class SourceSequence<Element>: Producer<Element> {
    private let makeSources: () -> AnyIterator<Observable<Element>>
    private let advancesOn: SourceAdvance

    init(advancingOn advancesOn: SourceAdvance, sources makeSources: @escaping () -> AnyIterator<Observable<Element>>) {
        self.makeSources = makeSources
        self.advancesOn = advancesOn
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = SourceSequenceSink(sources: makeSources(), advancesOn: advancesOn, observer: observer, cancel: cancel)
        sink.subscribeNext()
        return (sink, sink.current)
    }
}

/// Subscribes sources one after another, taken lazily from an iterator: the next one when
/// the current one ends the way that `advancesOn` says (`concat`: on completion;
/// `catch(sequence:)`: on error). The other stop event ends the whole sequence. When the
/// iterator runs out: `completed`, or with `advancesOn == .error` the last error.
///
/// Synchronous sources are chained in a loop, not by recursion: only the caller that raises
/// the pending-move count from zero subscribes, and it keeps going while moves were asked
/// for meanwhile, so a thousand sources that end at once use one stack frame. The iterator
/// is only touched by that caller (the count's acquire/release orders the hand-over), so
/// an endless iterator (`repeatElement`) is fine.
final class SourceSequenceSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private var sources: AnyIterator<Observable<Element>>
    private let advancesOn: SourceAdvance
    /// The error the last source ended with (`advancesOn == .error`; touched by the mover).
    private var lastError: Swift.Error?
    private let pendingMoves = Atomic<Int>(0)
    let current = SerialDisposable()

    init(sources: AnyIterator<Observable<Element>>, advancesOn: SourceAdvance, observer: Observer, cancel: Cancelable) {
        self.sources = sources
        self.advancesOn = advancesOn
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Element>) {
        switch (event, advancesOn) {
        case (.next, _):
            forwardOn(event)
        case (.completed, .completed):
            subscribeNext()
        case (.error(let error), .error):
            lastError = error
            subscribeNext()
        case (.completed, .error), (.error, .completed):
            forwardOn(event)
            dispose()
        }
    }

    func subscribeNext() {
        guard pendingMoves.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue == 0 else { return }
        repeat {
            if isDisposed { return }
            guard let source = sources.next() else {
                forwardOn(lastError.map { .error($0) } ?? .completed)
                dispose()
                return
            }
            let subscription = SingleAssignmentDisposable()
            current.disposable = subscription
            subscription.setDisposable(source.subscribe(self))
        } while pendingMoves.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue != 0
    }
}
