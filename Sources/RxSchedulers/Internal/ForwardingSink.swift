/// A sink that forwards events as they are and disposes after a stop event; the
/// building block of operators that only need to watch or relay.
final class ForwardingSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    func on(_ event: Event<Element>) {
        forwardOn(event)
        if event.isStopEvent { dispose() }
    }
}
