extension ObservableType {
    /// This sequence's elements, then, once it completes, those of `second`.
    public func concat<Source: ObservableConvertibleType>(_ second: Source) -> Observable<Element> where Source.Element == Element {
        Self.concat([asObservable(), second.asObservable()])
    }

    /// The elements of each sequence in turn; each is subscribed when the one before
    /// it completes. Synchronous sources are chained in a loop, not by recursion.
    /// `sequence` is read lazily, once per subscription, so it may be endless.
    public static func concat<Sequence: Swift.Sequence>(_ sequence: Sequence) -> Observable<Element> where Sequence.Element == Observable<Element> {
        SourceSequence(advancingOn: .completed) { AnyIterator(sequence.makeIterator()) }
    }

    /// The elements of each sequence in turn.
    public static func concat(_ sources: Observable<Element>...) -> Observable<Element> {
        concat(sources)
    }
}
