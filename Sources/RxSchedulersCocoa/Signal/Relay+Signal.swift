import RxSchedulers
import RxSchedulersRelay

extension PublishRelay {
    /// The relay as a `Signal`: its elements from now on, observed on the main scheduler.
    public func asSignal() -> Signal<Element> {
        SharedSequence(asObservable().observe(on: SignalSharingStrategy.scheduler))
    }
}
