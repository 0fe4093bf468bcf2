import Foundation

extension ObservableType {
    /// Prints each subscription, event and disposal on standard output, as RxSwift's
    /// `debug`: `2026-11-23 16:40:01.123: identifier -> subscribed`, `-> Event next(1)`,
    /// `-> isDisposed`. Without an identifier, the call site (`File.swift:12 (function)`).
    /// `trimOutput` shortens an event's text over 40 characters to its first and last 20.
    /// For debugging: it formats a date per line.
    public func debug(
        _ identifier: String? = nil, trimOutput: Bool = false, file: String = #file, line: UInt = #line, function: String = #function
    ) -> Observable<Element> {
        let name = identifier ?? "\(file.split(separator: "/").last.map(String.init) ?? file):\(line) (\(function))"
        let source = asObservable()
        return Observable.create { observer in
            let log = DebugLog(identifier: name)
            log.write("subscribed")
            let subscription = source.subscribe { event in
                var text = "\(event)"
                if trimOutput && text.count > 40 { text = String(text.prefix(20)) + "..." + String(text.suffix(20)) }
                log.write("Event \(text)")
                observer.on(event)
            }
            return Disposables.create {
                subscription.dispose()
                log.write("isDisposed")
            }
        }
    }
}

/// One `debug` subscription's lines. Where they go is `DebugLog.output` (standard output;
/// tests capture it).
struct DebugLog {
    let identifier: String
    private let formatter: DateFormatter

    init(identifier: String) {
        self.identifier = identifier
        formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss.SSS"
    }

    func write(_ content: String) {
        Self.output.value("\(formatter.string(from: Date())): \(identifier) -> \(content)")
    }

    /// Where lines go; replaceable for tests.
    static let output = DebugOutput()
}

/// The destination of `debug` lines, under a lock.
final class DebugOutput: @unchecked Sendable {
    private let lock = Lock()
    private var destination: (String) -> Void = { print($0) }

    var value: (String) -> Void {
        get { lock.performLocked { destination } }
        set { lock.performLocked { destination = newValue } }
    }
}
