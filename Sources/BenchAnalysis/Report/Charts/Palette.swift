import BenchModel

/// The report's colours. A strategy has the same colour in every chart of every report
/// (`StrategyName.colorIndex`: its place in the built-ins' listing order), drawn from a
/// palette that colour-blind readers can tell apart as far as one can (Okabe and Ito's
/// eight, then Paul Tol's muted ones and one of his medium-contrast set for the names after
/// the eighth; charts label their series, so colour is never the only cue).
enum Palette {
    static let colors = [
        "#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9", "#882255", "#44AA99", "#999933", "#332288", "#000000",
        "#CC6677", "#117733", "#AA4499", "#88CCEE", "#DDCC77", "#997700",
    ]

    static func color(_ strategy: StrategyName) -> String {
        colors[strategy.colorIndex % colors.count]
    }

    static func color(_ verdict: Comparison.Verdict) -> String {
        switch verdict {
        case .regressed: return "#C0392B"
        case .improved: return "#1E8449"
        case .unchanged: return "#5D6D7E"
        case .inconclusive: return "#B9770E"
        }
    }

    static let grid = "#E5E7EB"
    static let axis = "#6B7280"
    static let band = "#9CA3AF"
}
