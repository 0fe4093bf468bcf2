import Foundation

/// Standard error as a person sees it during a long command: one status line redrawn in
/// place (only when `live`: a terminal without `--quiet`), and messages that stay, printed
/// above it whether live or not. Thread-safe.
final class StatusLine: @unchecked Sendable {
    private let live: Bool
    private let lock = NSLock()
    private var shown = false

    init(live: Bool) { self.live = live }

    /// Whether the status line is drawn at all.
    var isLive: Bool { live }

    /// Replaces the status line with `text` (nothing when not live).
    func show(_ text: String) {
        guard live else { return }
        lock.withLock {
            FileHandle.standardError.write(Data(("\r\u{1B}[K" + text).utf8))
            shown = true
        }
    }

    /// Prints `text` as a line of its own, clearing the status line first.
    func message(_ text: String) {
        lock.withLock {
            clearLocked()
            FileHandle.standardError.write(Data((text + "\n").utf8))
        }
    }

    /// Clears the status line (call once the work is done).
    func finish() {
        lock.withLock { clearLocked() }
    }

    private func clearLocked() {
        if shown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        shown = false
    }
}
