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

    /// The directories `makeDirectory` handed out that are not yet removed.
    private static let inUse = Locked(0)

    /// A fresh directory under the root, for one run; give it back with `remove(_:)`.
    package static func makeDirectory() -> URL {
        inUse.withLock { $0 += 1 }
        return root.appendingPathComponent(UUID().uuidString)
    }

    /// Removes `directory` (from `makeDirectory`) and, once no other directory of this
    /// process is in use, the root if it is empty, so that a run that finishes leaves
    /// nothing in the temporary directory (a run's children each remove their own root,
    /// inside this one).
    package static func remove(_ directory: URL) {
        try? FileManager.default.removeItem(at: directory)
        inUse.withLock { count in
            count -= 1
            if count == 0 { rmdir(root.path) }
        }
    }

    /// Removes this process's scratch root and everything in it. Safe to call from a
    /// signal handler's dispatch source; the CLI calls it before it exits on SIGTERM or a
    /// second Ctrl-C.
    package static func removeAll() {
        try? FileManager.default.removeItem(at: root)
    }
}
