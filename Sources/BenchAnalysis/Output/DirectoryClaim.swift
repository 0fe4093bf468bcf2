import BenchModel
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A results directory held by one process while it writes there: an exclusive `flock` on
/// `.schedbench-lock` in the directory, which the kernel releases when the process ends
/// however it ends. A second run, stress run or gate into the same directory is refused
/// at once instead of interleaving its files with the first's.
package final class DirectoryClaim: Sendable {
    package static let fileName = ".schedbench-lock"

    private let descriptor: Int32

    /// Claims `directory` (which must exist), or throws `BenchError.unwritable` naming the
    /// process that holds it.
    package init(_ directory: URL) throws {
        let path = directory.appendingPathComponent(Self.fileName).path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw BenchError.unwritable(path: path, problem: String(cString: strerror(errno)))
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let holder = (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            close(descriptor)
            throw BenchError.unwritable(
                path: directory.path,
                problem: "another schedbench process\(holder.isEmpty ? "" : " (pid \(holder))") is writing there; wait for it, or choose another --out")
        }
        let pid = "\(getpid())\n"
        _ = ftruncate(descriptor, 0)
        _ = pid.withCString { write(descriptor, $0, strlen($0)) }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }
}
