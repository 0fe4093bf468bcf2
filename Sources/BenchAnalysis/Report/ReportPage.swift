import BenchChild
import BenchModel
/// The HTML around a report's sections: inline CSS (screen and print), a table of contents,
/// and the one inline script (click a summary column's header to sort by it; without
/// JavaScript the table stays in run order).
struct ReportPage {
    let title: String
    private var sections: [(title: String, body: String)] = []

    init(title: String) {
        self.title = title
    }

    mutating func section(_ title: String, _ body: String) {
        sections.append((title, body))
    }

    static func anchor(_ title: String) -> String { title.lowercased().replacingOccurrences(of: " ", with: "-") }

    func render() -> String {
        let contents = sections.map { "<a href=\"#\(Self.anchor($0.title))\">\(SVGDocument.escape($0.title))</a>" }.joined(separator: " · ")
        let body = sections.map { "<section id=\"\(Self.anchor($0.title))\">\n<h2>\(SVGDocument.escape($0.title))</h2>\n\($0.body)\n</section>" }
            .joined(separator: "\n")
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="generator" content="schedbench report">
            <title>\(SVGDocument.escape(title))</title>
            <style>
            \(Self.style)
            </style>
            </head>
            <body>
            <header><h1>\(SVGDocument.escape(title))</h1><nav>\(contents)</nav></header>
            <main>
            \(body)
            </main>
            <script>
            \(Self.sortScript)
            </script>
            </body>
            </html>

            """
    }

    static let style = """
        :root { color-scheme: light; }
        body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0; color: #1F2937; background: #FFF; }
        header { padding: 16px 24px 8px; border-bottom: 1px solid #E5E7EB; }
        h1 { font-size: 22px; margin: 0 0 6px; }
        h2 { font-size: 18px; margin: 28px 0 8px; border-bottom: 1px solid #E5E7EB; padding-bottom: 4px; }
        h3 { font-size: 14px; margin: 18px 0 6px; }
        nav a { color: #1D4ED8; text-decoration: none; font-size: 13px; }
        main { padding: 0 24px 32px; max-width: 1400px; }
        p, li { font-size: 13px; line-height: 1.45; max-width: 90ch; }
        .note { color: #4B5563; }
        .charts { display: flex; flex-wrap: wrap; gap: 16px; }
        .charts figure { margin: 0; border: 1px solid #E5E7EB; border-radius: 6px; padding: 8px; background: #FFF; }
        svg.chart { max-width: 100%; height: auto; display: block; }
        table { border-collapse: collapse; font-size: 12px; margin: 6px 0 12px; }
        th, td { border-bottom: 1px solid #E5E7EB; padding: 3px 8px; text-align: left; white-space: nowrap; }
        td.number, th.number { text-align: right; font-variant-numeric: tabular-nums; }
        th { background: #F9FAFB; position: sticky; top: 0; }
        table.sortable th { cursor: pointer; }
        .verdict { display: inline-block; padding: 2px 10px; border-radius: 12px; color: #FFF; font-weight: 600; font-size: 13px; }
        .pass { background: #1E8449; } .fail { background: #C0392B; } .warn { background: #B9770E; } .neutral { background: #5D6D7E; }
        dl.provenance { display: grid; grid-template-columns: max-content auto; gap: 2px 16px; font-size: 13px; }
        dl.provenance dt { color: #6B7280; } dl.provenance dd { margin: 0; }
        @media print {
          header nav, script { display: none; }
          main { padding: 0; max-width: none; }
          section { break-inside: auto; } figure { break-inside: avoid; }
          th { position: static; }
        }
        """

    static let sortScript = """
        document.querySelectorAll("table.sortable").forEach(function (table) {
          table.querySelectorAll("th").forEach(function (header, column) {
            header.title = "Sort by this column";
            header.addEventListener("click", function () {
              var body = table.tBodies[0], rows = Array.from(body.rows);
              var descending = header.dataset.order !== "descending";
              header.dataset.order = descending ? "descending" : "ascending";
              rows.sort(function (a, b) {
                var x = a.cells[column].dataset.value || a.cells[column].textContent;
                var y = b.cells[column].dataset.value || b.cells[column].textContent;
                var nx = parseFloat(x), ny = parseFloat(y);
                var order = (!isNaN(nx) && !isNaN(ny)) ? nx - ny : x.localeCompare(y);
                return descending ? -order : order;
              });
              rows.forEach(function (row) { body.appendChild(row); });
            });
          });
        });
        """
}
