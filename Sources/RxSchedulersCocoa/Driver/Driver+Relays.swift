import RxSchedulers
import RxSchedulersRelay

extension SharedSequenceConvertibleType where SharingStrategy == DriverSharingStrategy {
    /// Makes each element the value of `relays`. Call on the main thread (checked).
    public func drive(_ relays: BehaviorRelay<Element>...) -> Disposable {
        MainScheduler.ensureRunningOnMainThread(errorMessage: driveOffTheMainThread)
        return asObservable().subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Makes each element, as an optional, the value of `relays`. Call on the main thread (checked).
    public func drive(_ relays: BehaviorRelay<Element?>...) -> Disposable {
        MainScheduler.ensureRunningOnMainThread(errorMessage: driveOffTheMainThread)
        return asObservable().subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Sends each element to `relays`. Call on the main thread (checked).
    public func drive(_ relays: ReplayRelay<Element>...) -> Disposable {
        MainScheduler.ensureRunningOnMainThread(errorMessage: driveOffTheMainThread)
        return asObservable().subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Sends each element, as an optional, to `relays`. Call on the main thread (checked).
    public func drive(_ relays: ReplayRelay<Element?>...) -> Disposable {
        MainScheduler.ensureRunningOnMainThread(errorMessage: driveOffTheMainThread)
        return asObservable().subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }
}
