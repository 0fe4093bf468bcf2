import CProcess
import Foundation

/// The processors this process may run on.
package enum Processors {
    /// The processors this thread may run on (its affinity mask, which a container's or
    /// `taskset`'s limits narrow), in ascending order. Falls back to the first
    /// `activeProcessorCount` processors when the kernel will not say.
    package static func allowed() -> [Int] {
        var processors = [Int32](repeating: 0, count: 1_024)
        let count = processors.withUnsafeMutableBufferPointer { schedbench_allowed_processors($0.baseAddress, Int32($0.count)) }
        guard count > 0 else { return Array(0..<ProcessInfo.processInfo.activeProcessorCount) }
        return processors.prefix(Int(count)).map(Int.init)
    }
}
