/// An observer that applies each element to a target object on a scheduler, as a UI
/// binding does: `binding(target, element)` runs on `scheduler` (a `MainScheduler` by
/// default) while the target is alive; the target is held weakly. Completion is ignored;
/// an error is a programming error (a binding cannot fail) and traps in debug builds.
public struct Binder<Value>: ObserverType {
    public typealias Element = Value

    private let binding: (Event<Value>) -> Void

    /// A binder of `target`, which it holds weakly.
    public init<Target: AnyObject>(
        _ target: Target, scheduler: ImmediateSchedulerType = MainScheduler(), binding: @escaping (Target, Value) -> Void
    ) {
        self.binding = { [weak target] event in
            switch event {
            case .next(let element):
                _ = scheduler.schedule(element) { [weak target] element in
                    if let target { binding(target, element) }
                    return Disposables.create()
                }
            case .error(let error):
                assertionFailure("a binding received an error: \(error)")
            case .completed:
                break
            }
        }
    }

    public func on(_ event: Event<Value>) {
        binding(event)
    }

    /// The binder as an `AnyObserver`.
    public func asObserver() -> AnyObserver<Value> {
        AnyObserver(eventHandler: on)
    }
}
