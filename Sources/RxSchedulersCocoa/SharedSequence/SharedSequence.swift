import RxSchedulers

/// An observable sequence with three guarantees that its type carries, so that code
/// receiving one need not check them (RxCocoa's `SharedSequence`):
///
/// - it never fails: every way into one (`asDriver(onErrorJustReturn:)`, …) says what
///   to deliver instead of an error;
/// - it delivers on `SharingStrategy.scheduler` (the main scheduler for `Driver` and
///   `Signal`): every way into one observes on it, and the time operators use it;
/// - it shares one subscription to its source among its observers, as
///   `SharingStrategy.share` says (`Driver` replays the latest element, `Signal` does not).
///
/// Each operator returns a new shared sequence whose source is shared again, so a chain
/// of them keeps all three.
///
/// Cost: the sharing adds one subject and one lock per shared sequence to every event
/// (see `share(replay:scope:)`), and the way in adds one `observe(on:)` hop; the operators
/// are the core's, specialized in the caller as they are.
public struct SharedSequence<SharingStrategy: SharingStrategyProtocol, Element>: SharedSequenceConvertibleType, ObservableConvertibleType {
    @usableFromInline let source: Observable<Element>

    /// A shared sequence of `source`, shared as the strategy says. `source` must already
    /// keep the first two guarantees.
    @usableFromInline
    init(_ source: Observable<Element>) {
        self.source = SharingStrategy.share(source)
    }

    /// A shared sequence of `source` as it is: for sources that share nothing because
    /// each subscription is cheap and independent (`just`, `empty`, …).
    @usableFromInline
    init(raw source: Observable<Element>) {
        self.source = source
    }

    /// The shared sequence as a plain observable; its guarantees still hold, its type no
    /// longer says so.
    @inlinable
    public func asObservable() -> Observable<Element> {
        source
    }

    /// The shared sequence as an `Infallible`, which it is.
    public func asInfallible() -> Infallible<Element> {
        asInfallible(onErrorFallbackTo: .empty())
    }

    /// `self`.
    @inlinable
    public func asSharedSequence() -> SharedSequence<SharingStrategy, Element> {
        self
    }
}

/// How a kind of shared sequence delivers and shares: the scheduler its events are
/// delivered on, and the sharing applied to each of its sources.
public protocol SharingStrategyProtocol {
    /// The scheduler every event is delivered on, and the time operators run on.
    static var scheduler: SchedulerType { get }

    /// How observers share one subscription to `source` (for example
    /// `share(replay: 1, scope: .whileConnected)`).
    static func share<Element>(_ source: Observable<Element>) -> Observable<Element>
}

/// A type that can be converted to a `SharedSequence`.
public protocol SharedSequenceConvertibleType: ObservableConvertibleType {
    /// How the shared sequence delivers and shares.
    associatedtype SharingStrategy: SharingStrategyProtocol

    /// This value as a shared sequence.
    func asSharedSequence() -> SharedSequence<SharingStrategy, Element>
}

extension SharedSequenceConvertibleType {
    /// The shared sequence as a plain observable.
    @inlinable
    public func asObservable() -> Observable<Element> {
        asSharedSequence().asObservable()
    }
}
