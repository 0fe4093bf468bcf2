import Foundation
import BenchAnalysis
import BenchChild
import BenchModel
import BenchWorkflows

/// Standard error as a person sees it during a long command: one status line redrawn in
/// place (only when `live`: a terminal without `--quiet`), and messages that stay, printed
/// above it whether live or not. Thread-safe.
final class StatusLine: Sendable {
    private let live: Bool
    /// Whether a status line is on screen; held while writing, so lines never interleave.
    private let shown = Locked(false)

    init(live: Bool) { self.live = live }

    /// Whether the status line is drawn at all.
    var isLive: Bool { live }

    /// Replaces the status line with `text` (nothing when not live).
    func show(_ text: String) {
        guard live else { return }
        shown.withLock { shown in
            FileHandle.standardError.write(Data(("\r\u{1B}[K" + text).utf8))
            shown = true
        }
    }

    /// Prints `text` as a line of its own, clearing the status line first.
    func message(_ text: String) {
        shown.withLock { shown in
            Self.clear(&shown)
            FileHandle.standardError.write(Data((text + "\n").utf8))
        }
    }

    /// Clears the status line (call once the work is done).
    func finish() {
        shown.withLock { Self.clear(&$0) }
    }

    private static func clear(_ shown: inout Bool) {
        if shown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        shown = false
    }
}
