import RxSchedulers

/// A shared sequence for events (RxCocoa's `Signal`): it never fails, delivers on the
/// main scheduler (`SharingScheduler.make()`), and shares one subscription among its
/// observers with `share(scope: .whileConnected)`: an observer that subscribes late gets
/// only what comes after, nothing replayed; when the last observer goes, the source's
/// subscription is disposed.
///
/// For state that a late observer must see at once, use `Driver`.
public typealias Signal<Element> = SharedSequence<SignalSharingStrategy, Element>

/// `Signal`'s delivery and sharing: the main scheduler, no replay.
public struct SignalSharingStrategy: SharingStrategyProtocol {
    /// A new scheduler from `SharingScheduler.make()` (a `MainScheduler` unless mocked).
    @inlinable
    public static var scheduler: SchedulerType { SharingScheduler.make() }

    /// `share(scope: .whileConnected)`.
    @inlinable
    public static func share<Element>(_ source: Observable<Element>) -> Observable<Element> {
        source.share(scope: .whileConnected)
    }
}

extension SharedSequenceConvertibleType where SharingStrategy == SignalSharingStrategy {
    /// `self` as a `Signal`.
    @inlinable
    public func asSignal() -> Signal<Element> {
        asSharedSequence()
    }
}
