import RxSchedulers

extension SharedSequenceConvertibleType {
    /// Prints every event, subscription and disposal, as `Observable.debug` does. Shared again.
    @inlinable
    public func debug(
        _ identifier: String? = nil, trimOutput: Bool = false, file: String = #file, line: UInt = #line, function: String = #function
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().debug(identifier, trimOutput: trimOutput, file: file, line: line, function: function))
    }
}
