import BenchModel
import Foundation

/// Where the engine keeps files it needs only while it runs (callgrind dumps, the binary
/// copy valgrind runs): one directory per process tree, `schedbench-<pid>` in the
/// temporary directory of the outermost schedbench. Children put theirs inside their
/// parent's (the parent passes its directory down in `environmentKey`), so removing the
/// parent's removes everything, even what a child killed outright left behind.
package enum ScratchSpace {
    static let environmentKey = "SCHEDBENCH_SCRATCH"

    /// This process's scratch root (not created until something is put in it).
    static let root: URL = {
        let name = "schedbench-\(getpid())"
        if let parent = ProcessInfo.processInfo.environment[environmentKey], !parent.isEmpty {
            return URL(fileURLWithPath: parent).appendingPathComponent(name)
        }
        return FileManager.default.temporaryDirectory.appendingPathComponent(name)
    }()

    /// A fresh directory under the root, for one run.
    package static func makeDirectory() -> URL {
        root.appendingPathComponent(UUID().uuidString)
    }

    /// Removes this process's scratch root and everything in it. Safe to call from a
    /// signal handler's dispatch source; the CLI calls it before it exits on SIGTERM or a
    /// second Ctrl-C.
    package static func removeAll() {
        try? FileManager.default.removeItem(at: root)
    }
}
