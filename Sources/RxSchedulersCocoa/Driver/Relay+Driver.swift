import RxSchedulers
import RxSchedulersRelay

extension BehaviorRelay {
    /// The relay as a `Driver`: its value now and each new one, observed on the main scheduler.
    public func asDriver() -> Driver<Element> {
        SharedSequence(asObservable().observe(on: DriverSharingStrategy.scheduler))
    }
}

extension InfallibleType {
    /// The infallible as a `Driver`, observed on the main scheduler (it cannot fail).
    public func asDriver() -> Driver<Element> {
        SharedSequence(asObservable().observe(on: DriverSharingStrategy.scheduler))
    }
}
