extension ObservableType {
    /// The result of `resultSelector` over the n-th element of each source of `collection`,
    /// in the collection's order, once every source has sent its n-th. Completes once every
    /// source has completed, or when one sends an element while no result can be made and
    /// every other has completed (as RxSwift's collection `zip` does); an error of any
    /// source ends it at once; an empty collection completes at once. The array handed to
    /// `resultSelector` is built per result.
    @inlinable
    public static func zip<Collection: Swift.Collection>(
        _ collection: Collection, resultSelector: @escaping ([Collection.Element.Element]) throws -> Element
    ) -> Observable<Element> where Collection.Element: ObservableType {
        let sources = collection.map { $0.asObservable() }
        return ClosureProducer<Element> { downstream, cancel in
            let sink = CombiningSink<Element>(arity: sources.count, completesWhenOthersAreDone: true, downstream: downstream, cancel: cancel)
            guard !sources.isEmpty else {
                sink.runWithoutSources(result: nil)
                return (sink.gate, Disposables.create())
            }
            // The elements of each source not yet combined, and how many sources have one:
            // under `sink.lock` only.
            var queues = sources.map { _ in RingQueue<Collection.Element.Element>(capacity: 2) }
            var withElement = 0
            let ready = { withElement == sources.count }
            let result = { () throws -> Element in
                var elements: [Collection.Element.Element] = []
                elements.reserveCapacity(queues.count)
                withElement = 0
                for index in queues.indices {
                    elements.append(queues[index].dequeue()!)
                    if !queues[index].isEmpty { withElement += 1 }
                }
                return try resultSelector(elements)
            }
            let store = { (index: Int, element: Collection.Element.Element) in
                if queues[index].isEmpty { withElement += 1 }
                queues[index].enqueue(element)
            }
            return (sink.gate, sink.subscribe(sources, store: store, ready: ready, result: result))
        }
    }

    /// The n-th element of each source of `collection`, as an array in the collection's
    /// order (see `zip(_:resultSelector:)`).
    @inlinable
    public static func zip<Collection: Swift.Collection>(_ collection: Collection) -> Observable<[Element]>
    where Collection.Element: ObservableType, Collection.Element.Element == Element {
        Observable<[Element]>.zip(collection) { $0 }
    }
}
