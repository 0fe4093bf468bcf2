extension ObservableType {
    /// Each element mapped to an inner sequence; the inner sequences one after another,
    /// each subscribed when the one before completes (the others wait, in order).
    /// `merge(maxConcurrent: 1)` of the mapped sequences.
    public func concatMap<Source: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Source) -> Observable<Source.Element> {
        map(selector).merge(maxConcurrent: 1)
    }
}
