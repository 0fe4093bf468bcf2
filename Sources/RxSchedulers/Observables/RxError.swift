/// Errors the core itself produces.
public enum RxError: Swift.Error, CustomDebugStringConvertible {
    /// An unknown error.
    case unknown
    /// An operation was performed on a disposed object.
    case disposed(object: AnyObject)
    /// Arithmetic overflow.
    case overflow
    /// An argument was out of range.
    case argumentOutOfRange
    /// A sequence had no elements.
    case noElements
    /// A sequence had more than one element.
    case moreThanOneElement
    /// A timeout expired.
    case timeout

    public var debugDescription: String {
        switch self {
        case .unknown: return "Unknown error occurred."
        case .disposed(let object): return "Object `\(object)` was already disposed."
        case .overflow: return "Arithmetic overflow occurred."
        case .argumentOutOfRange: return "Argument out of range."
        case .noElements: return "Sequence doesn't contain any elements."
        case .moreThanOneElement: return "Sequence contains more than one element."
        case .timeout: return "Sequence timeout."
        }
    }
}
