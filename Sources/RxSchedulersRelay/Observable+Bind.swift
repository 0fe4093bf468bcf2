import RxSchedulers

// `bind(to:)` of relays: each element is accepted by every relay; completion ends the
// binding; an error is a programming error (a relay cannot fail), which traps in debug
// builds and is otherwise dropped.

extension ObservableType {
    /// Sends each element to `relays`.
    public func bind(to relays: PublishRelay<Element>...) -> Disposable {
        bind(accepting: { element in relays.forEach { $0.accept(element) } })
    }

    /// Sends each element, as an optional, to `relays`.
    public func bind(to relays: PublishRelay<Element?>...) -> Disposable {
        bind(accepting: { element in relays.forEach { $0.accept(element) } })
    }

    /// Makes each element the value of `relays`.
    public func bind(to relays: BehaviorRelay<Element>...) -> Disposable {
        bind(accepting: { element in relays.forEach { $0.accept(element) } })
    }

    /// Makes each element, as an optional, the value of `relays`.
    public func bind(to relays: BehaviorRelay<Element?>...) -> Disposable {
        bind(accepting: { element in relays.forEach { $0.accept(element) } })
    }

    /// Sends each element to `relays`.
    public func bind(to relays: ReplayRelay<Element>...) -> Disposable {
        bind(accepting: { element in relays.forEach { $0.accept(element) } })
    }

    /// Sends each element, as an optional, to `relays`.
    public func bind(to relays: ReplayRelay<Element?>...) -> Disposable {
        bind(accepting: { element in relays.forEach { $0.accept(element) } })
    }

    private func bind(accepting accept: @escaping (Element) -> Void) -> Disposable {
        subscribe { event in
            switch event {
            case .next(let element): accept(element)
            case .error(let error): assertionFailure("a binding to a relay received an error: \(error)")
            case .completed: break
            }
        }
    }
}
