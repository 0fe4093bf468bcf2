import Foundation

/// Text made into one word of a POSIX shell command line, for commands the tool prints
/// for a person to paste (a replay line).
enum ShellWord {
    /// `text` as is when it holds only characters no shell treats specially, else inside
    /// single quotes (a single quote in it written as `'\''`).
    static func quoted(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "/._-+,:=@%".unicodeScalars.contains($0)) }
        return plain ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
