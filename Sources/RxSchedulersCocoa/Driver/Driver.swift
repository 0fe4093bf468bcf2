import RxSchedulers

/// A shared sequence for the state a screen shows (RxCocoa's `Driver`): it never fails,
/// delivers on the main scheduler (`SharingScheduler.make()`), and shares one
/// subscription among its observers with `share(replay: 1, scope: .whileConnected)`:
///
/// - an observer that subscribes while the source is connected gets the latest element at
///   once, on the thread it subscribes on (call `drive` on the main thread, which `drive`
///   checks, so that this replay is on the main thread too);
/// - when the last observer goes, the source's subscription is disposed and the replayed
///   element forgotten; the next observer subscribes to the source again.
///
/// For events that must not be replayed (taps, one-off messages), use `Signal`.
public typealias Driver<Element> = SharedSequence<DriverSharingStrategy, Element>

/// `Driver`'s delivery and sharing: the main scheduler, replay of the latest element while connected.
public struct DriverSharingStrategy: SharingStrategyProtocol {
    /// A new scheduler from `SharingScheduler.make()` (a `MainScheduler` unless mocked).
    @inlinable
    public static var scheduler: SchedulerType { SharingScheduler.make() }

    /// `share(replay: 1, scope: .whileConnected)`.
    @inlinable
    public static func share<Element>(_ source: Observable<Element>) -> Observable<Element> {
        source.share(replay: 1, scope: .whileConnected)
    }
}

extension SharedSequenceConvertibleType where SharingStrategy == DriverSharingStrategy {
    /// `self` as a `Driver`.
    @inlinable
    public func asDriver() -> Driver<Element> {
        asSharedSequence()
    }
}
