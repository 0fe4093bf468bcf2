extension Infallible {
    /// An infallible of `element`, then completion.
    public static func just(_ element: Element) -> Infallible<Element> {
        Infallible(.just(element))
    }

    /// An infallible of `element`, sent on `scheduler`, then completion.
    public static func just(_ element: Element, scheduler: ImmediateSchedulerType) -> Infallible<Element> {
        Infallible(.just(element, scheduler: scheduler))
    }

    /// An infallible that never sends anything.
    public static func never() -> Infallible<Element> {
        Infallible(.never())
    }

    /// An infallible that completes at once.
    public static func empty() -> Infallible<Element> {
        Infallible(.empty())
    }

    /// An infallible made by `factory` anew for each subscription. As in RxSwift, an
    /// error `factory` throws is passed on as the sequence's error: a factory of an
    /// infallible must not throw.
    public static func deferred(_ factory: @escaping () throws -> Infallible<Element>) -> Infallible<Element> {
        Infallible(.deferred { try factory().asObservable() })
    }

    /// `elements`, sent on `scheduler`, then completion.
    public static func of(_ elements: Element..., scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Infallible<Element> {
        Infallible(.from(elements, scheduler: scheduler))
    }

    /// The elements of `array`, sent on `scheduler`, then completion.
    public static func from(_ array: [Element], scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Infallible<Element> {
        Infallible(.from(array, scheduler: scheduler))
    }

    /// The elements of `sequence`, sent on `scheduler`, then completion.
    public static func from<Sequence: Swift.Sequence>(_ sequence: Sequence, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance)
        -> Infallible<Element> where Sequence.Element == Element
    {
        Infallible(.from(sequence, scheduler: scheduler))
    }
}
