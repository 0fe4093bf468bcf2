extension ObservableType {
    /// The result of `resultSelector` over the latest element of each source of
    /// `collection`, in the collection's order, each time any source sends one, once every
    /// source has sent one. Completion and errors as for `combineLatest(_:_:resultSelector:)`;
    /// an empty collection sends `resultSelector([])` and completes. The array handed to
    /// `resultSelector` is built per result.
    @inlinable
    public static func combineLatest<Collection: Swift.Collection>(
        _ collection: Collection, resultSelector: @escaping ([Collection.Element.Element]) throws -> Element
    ) -> Observable<Element> where Collection.Element: ObservableType {
        let sources = collection.map { $0.asObservable() }
        return ClosureProducer<Element> { downstream, cancel in
            let sink = CombiningSink<Element>(arity: sources.count, completesWhenOthersAreDone: true, downstream: downstream, cancel: cancel)
            guard !sources.isEmpty else {
                sink.runWithoutSources(result: { try resultSelector([]) })
                return (sink.gate, Disposables.create())
            }
            // The latest element of each source, and how many have one: under `sink.lock` only.
            var latest = [Collection.Element.Element?](repeating: nil, count: sources.count)
            var withElement = 0
            let ready = { withElement == sources.count }
            let result = { try resultSelector(latest.map { $0! }) }
            let store = { (index: Int, element: Collection.Element.Element) in
                if latest[index] == nil { withElement += 1 }
                latest[index] = element
            }
            return (sink.gate, sink.subscribe(sources, store: store, ready: ready, result: result))
        }
    }

    /// The latest element of each source of `collection`, as an array in the collection's
    /// order (see `combineLatest(_:resultSelector:)`).
    @inlinable
    public static func combineLatest<Collection: Swift.Collection>(_ collection: Collection) -> Observable<[Element]>
    where Collection.Element: ObservableType, Collection.Element.Element == Element {
        Observable<[Element]>.combineLatest(collection) { $0 }
    }
}
