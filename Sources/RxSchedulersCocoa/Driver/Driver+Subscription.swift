import RxSchedulers

@usableFromInline let driveOffTheMainThread = """
    `drive*` called off the main thread. A `Driver` replays its latest element on the \
    thread that subscribes, so subscribe on the main thread for every element to arrive there.
    """

extension SharedSequenceConvertibleType where SharingStrategy == DriverSharingStrategy {
    /// Delivers every event to each of `observers`. Call on the main thread (checked).
    @inlinable
    public func drive<Observer: ObserverType>(_ observers: Observer...) -> Disposable where Observer.Element == Element {
        MainScheduler.ensureRunningOnMainThread(errorMessage: driveOffTheMainThread)
        return asObservable().subscribe { event in observers.forEach { $0.on(event) } }
    }

    /// Delivers every event, its element wrapped in an optional, to each of `observers`.
    /// Call on the main thread (checked).
    @inlinable
    public func drive<Observer: ObserverType>(_ observers: Observer...) -> Disposable where Observer.Element == Element? {
        MainScheduler.ensureRunningOnMainThread(errorMessage: driveOffTheMainThread)
        return asObservable().map { $0 as Element? }.subscribe { event in observers.forEach { $0.on(event) } }
    }

    /// Returns what `transformation` makes of the driver as an observable (a binder's
    /// subscription, for example). Call on the main thread (checked).
    @inlinable
    public func drive<Result>(_ transformation: (Observable<Element>) -> Result) -> Result {
        MainScheduler.ensureRunningOnMainThread(errorMessage: driveOffTheMainThread)
        return transformation(asObservable())
    }

    /// Returns `with(observable)(curriedArgument)`, for binders that take one more
    /// argument. Call on the main thread (checked).
    @inlinable
    public func drive<R1, R2>(_ with: (Observable<Element>) -> (R1) -> R2, curriedArgument: R1) -> R2 {
        MainScheduler.ensureRunningOnMainThread(errorMessage: driveOffTheMainThread)
        return with(asObservable())(curriedArgument)
    }

    /// Subscribes closures, each given `object` while it lives (held weakly; once it is
    /// gone the closures are not called). Call on the main thread (checked).
    @inlinable
    public func drive<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        MainScheduler.ensureRunningOnMainThread(errorMessage: driveOffTheMainThread)
        return asObservable().subscribe(with: object, onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Subscribes closures (a driver never fails, so there is no `onError`); `onDisposed`
    /// runs once, on completion or disposal. Call on the main thread (checked).
    @inlinable
    public func drive(
        onNext: ((Element) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        MainScheduler.ensureRunningOnMainThread(errorMessage: driveOffTheMainThread)
        return asObservable().subscribe(onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Subscribes without observing anything, for the source's side effects. Call on the
    /// main thread (checked).
    @inlinable
    public func drive() -> Disposable {
        drive(onNext: nil, onCompleted: nil, onDisposed: nil)
    }
}
