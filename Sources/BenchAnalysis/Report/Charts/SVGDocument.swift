import BenchChild
import BenchModel
import Foundation

/// An SVG image built element by element: the one place that writes SVG markup and escapes
/// text. Every chart is one of these, with a `<title>` and `<desc>` that screen readers
/// announce (`role="img"`, `aria-labelledby`), and sizes in a `viewBox` so it scales with
/// the page. Coordinates are rounded to 0.1 px.
struct SVGDocument {
    let width: Double
    let height: Double
    private(set) var body: [String] = []

    init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// Text for XML content and attribute values.
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    static func number(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

    /// A hover tooltip (`<title>` child): shown by browsers without any script.
    private static func tooltip(_ text: String?) -> String {
        text.map { "<title>\(escape($0))</title>" } ?? ""
    }

    mutating func line(
        x1: Double, y1: Double, x2: Double, y2: Double, stroke: String, width: Double = 1, dashed: Bool = false, className: String? = nil
    ) {
        let n = Self.number
        body.append(
            "<line x1=\"\(n(x1))\" y1=\"\(n(y1))\" x2=\"\(n(x2))\" y2=\"\(n(y2))\" stroke=\"\(stroke)\" stroke-width=\"\(n(width))\""
                + (dashed ? " stroke-dasharray=\"4 3\"" : "") + (className.map { " class=\"\($0)\"" } ?? "") + "/>")
    }

    mutating func rect(x: Double, y: Double, width: Double, height: Double, fill: String, opacity: Double = 1, tooltip: String? = nil) {
        let n = Self.number
        let open =
            "<rect x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(max(0, width)))\" height=\"\(n(max(0, height)))\" fill=\"\(fill)\""
            + (opacity < 1 ? " fill-opacity=\"\(opacity)\"" : "")
        body.append(tooltip == nil ? open + "/>" : open + ">" + Self.tooltip(tooltip) + "</rect>")
    }

    mutating func circle(x: Double, y: Double, radius: Double, fill: String, tooltip: String? = nil) {
        let n = Self.number
        let open = "<circle cx=\"\(n(x))\" cy=\"\(n(y))\" r=\"\(n(radius))\" fill=\"\(fill)\""
        body.append(tooltip == nil ? open + "/>" : open + ">" + Self.tooltip(tooltip) + "</circle>")
    }

    mutating func polyline(_ points: [(Double, Double)], stroke: String, width: Double = 2) {
        let list = points.map { "\(Self.number($0.0)),\(Self.number($0.1))" }.joined(separator: " ")
        body.append(
            "<polyline points=\"\(list)\" fill=\"none\" stroke=\"\(stroke)\" stroke-width=\"\(Self.number(width))\" stroke-linejoin=\"round\"/>")
    }

    mutating func polygon(_ points: [(Double, Double)], fill: String, opacity: Double) {
        let list = points.map { "\(Self.number($0.0)),\(Self.number($0.1))" }.joined(separator: " ")
        body.append("<polygon points=\"\(list)\" fill=\"\(fill)\" fill-opacity=\"\(opacity)\" stroke=\"none\"/>")
    }

    enum Anchor: String {
        case start, middle, end
    }

    mutating func text(
        _ content: String, x: Double, y: Double, anchor: Anchor = .start, size: Double = 11, weight: String? = nil, fill: String = "#222",
        rotated: Bool = false, className: String? = nil
    ) {
        let n = Self.number
        body.append(
            "<text x=\"\(n(x))\" y=\"\(n(y))\" text-anchor=\"\(anchor.rawValue)\" font-size=\"\(n(size))\" fill=\"\(fill)\""
                + (weight.map { " font-weight=\"\($0)\"" } ?? "") + (rotated ? " transform=\"rotate(-90 \(n(x)) \(n(y)))\"" : "")
                + (className.map { " class=\"\($0)\"" } ?? "") + ">\(Self.escape(content))</text>")
    }

    /// The whole image. `id` must be unique in the page (it names the title and description).
    func render(id: String, title: String, description: String) -> String {
        """
        <svg viewBox="0 0 \(Self.number(width)) \(Self.number(height))" \
        width="\(Self.number(width))" height="\(Self.number(height))" role="img" aria-labelledby="\(id)-title \(id)-desc" \
        font-family="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif" class="chart">
        <title id="\(id)-title">\(Self.escape(title))</title>
        <desc id="\(id)-desc">\(Self.escape(description))</desc>
        \(body.joined(separator: "\n"))
        </svg>
        """
    }
}
