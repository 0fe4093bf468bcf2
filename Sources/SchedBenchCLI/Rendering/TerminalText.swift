/// Text from files and databases made visible before it reaches a terminal: control
/// characters (C0 but newline and tab, DEL, C1) become `\u{…}` escapes, so a run id
/// holding `ESC [ 2 J` prints as those characters instead of clearing the screen or
/// forging a line. The HTML report escapes the same text for HTML.
enum TerminalText {
    static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: return false
        case 0x00...0x1F, 0x7F...0x9F: return true
        default: return false
        }
    }
}
