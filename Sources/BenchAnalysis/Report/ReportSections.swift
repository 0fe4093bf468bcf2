import BenchChild
import BenchModel
import Foundation

/// The sections of a report, each HTML with its charts inline. A section with nothing to
/// show says why (no producer sweep in this run, no latency case) rather than vanish.
enum ReportSections {
    private static func escape(_ text: String) -> String { SVGDocument.escape(text) }

    private static func figures(_ charts: [String]) -> String {
        "<div class=\"charts\">\n" + charts.map { "<figure>\($0)</figure>" }.joined(separator: "\n") + "\n</div>"
    }

    private static func note(_ text: String) -> String { "<p class=\"note\">\(escape(text))</p>" }

    /// A stable, unique element id for a chart.
    private static func chartID(_ parts: String...) -> String {
        "chart-" + parts.joined(separator: "-").map { $0.isLetter || $0.isNumber ? String($0) : "-" }.joined()
    }

    private static func median(_ result: CaseResult, _ metric: Metric) -> Double? {
        let values = result.values(metric)
        return metric.isCorrectness ? values.max() : Statistics.median(values)
    }

    /// `cases` grouped by a key made from each case (the case with the columns that vary
    /// within a chart blanked), groups in the order their first case appears.
    private static func grouped(_ cases: [CaseResult], by key: (BenchCase) -> BenchCase) -> [(key: BenchCase, cases: [CaseResult])] {
        var order: [BenchCase] = []
        var groups: [BenchCase: [CaseResult]] = [:]
        for result in cases {
            let group = key(result.benchCase)
            if groups[group] == nil { order.append(group) }
            groups[group, default: []].append(result)
        }
        return order.map { ($0, groups[$0]!) }
    }

    /// A case's label.
    private static func label(_ benchCase: BenchCase) -> String { benchCase.description }

    /// Short labels for rows of cases: workload, scheduler/strategy, and of the other
    /// columns only those that differ between cases of the same workload.
    static func compactLabels(_ cases: [BenchCase]) -> [BenchCase: String] {
        let byWorkload = Dictionary(grouping: cases, by: \.workload)
        var labels: [BenchCase: String] = [:]
        for benchCase in cases {
            let siblings = byWorkload[benchCase.workload]!
            func varies<T: Hashable>(_ column: (BenchCase) -> T) -> Bool { Set(siblings.map(column)).count > 1 }
            var label = "\(benchCase.workload.rawValue) \(benchCase.scheduler.rawValue)/\(benchCase.strategy.rawValue)"
            if varies(\.producers) { label += " p=\(benchCase.producers)" }
            if varies(\.events) { label += " n=\(benchCase.events)" }
            if varies(\.payloadBytes) { label += " \(benchCase.payloadBytes) B" }
            if varies(\.rateHz) { label += " \(benchCase.rateHz) Hz" }
            labels[benchCase] = label
        }
        return labels
    }

    // MARK: Overview

    static func overview(_ run: ReportInput, base: ReportInput?) -> String {
        var html = ""
        if let status = run.status, !status.isComplete {
            html +=
                "<p><span class=\"verdict fail\">partial run</span> The run stopped early (interrupted, terminated, or a case could not run): "
                + "its results hold \(status.finished) of the \(status.planned) cases it set out to measure.</p>"
        }
        let failing = run.cases.filter { $0.correctnessFailures > 0 }
        if failing.isEmpty {
            html +=
                "<p><span class=\"verdict pass\">invariants held</span> All \(run.cases.count) cases kept their invariants and leaked nothing.</p>"
        } else {
            html +=
                "<p><span class=\"verdict fail\">correctness failure</span> \(failing.count) of \(run.cases.count) cases broke an invariant or leaked resources:</p><ul>"
            for result in failing {
                let violations = result.values(.invariantViolations).reduce(0, +)
                let leaked = result.values(.resourcesLeaked).reduce(0, +)
                html += "<li>\(escape(label(result.benchCase))): \(Int(violations)) violations, \(Int(leaked)) leaked"
                if !result.violationSamples.isEmpty {
                    html += "<ul class=\"violations\">"
                    for sample in result.violationSamples.prefix(20) {
                        html += "<li>\(escape(sample.location)): \(escape(sample.description))</li>"
                    }
                    if result.violationSamples.count > 20 {
                        html += "<li>… and \(result.violationSamples.count - 20) more in violations.csv</li>"
                    }
                    html += "</ul>"
                }
                html += "</li>"
            }
            html += "</ul>"
        }
        let suites = Array(Set(run.cases.map(\.benchCase.suite))).sorted().joined(separator: ", ")
        html += "<p>Suite \(escape(suites)), \(run.cases.count) cases, from <code>\(escape(run.path))</code>"
        if let base { html += ", compared with <code>\(escape(base.path))</code>" }
        html += ".</p>"
        if let provenance = run.provenance {
            html += "<dl class=\"provenance\">"
            let rows: [(String, String)] = [
                ("run", provenance.runID), ("started", provenance.timestamp), ("host", provenance.host), ("CPU", provenance.cpu),
                ("cores", String(provenance.cores)), ("OS", provenance.os), ("Swift", provenance.swift), ("commit", provenance.commit),
                ("build", provenance.build), ("kernel", provenance.kernel), ("governor", provenance.governor),
                ("CPU limit", provenance.cpuLimit), ("load average at start", provenance.loadAverage),
            ]
            for (name, value) in rows { html += "<dt>\(escape(name))</dt><dd>\(escape(value))</dd>" }
            html += "</dl>"
            if let baseProvenance = base?.provenance {
                let differences = baseProvenance.testbedDifferences(from: provenance)
                if !differences.isEmpty {
                    html +=
                        "<p><span class=\"verdict warn\">different testbeds</span> \(escape(differences.joined(separator: "; "))): a difference may be the machines', not the code's.</p>"
                }
            }
        }
        return html
    }

    // MARK: Summary table

    static func summaryTable(_ run: ReportInput) -> String {
        let metrics: [(Metric, ValueFormat, String)] = [
            (.eventsPerSec, .count, "events/s"), (.nsPerEvent, .nanoseconds, "per event"), (.latencyP50, .nanoseconds, "p50"),
            (.latencyP99, .nanoseconds, "p99"), (.allocsPerEvent, .count, "allocs/event"), (.threadsPeak, .count, "threads"),
            (.rssPeak, .bytes, "peak RSS"),
        ]
        var html = note("Medians over the timed trials. Click a column's header to sort by it.")
        html += "<table class=\"sortable\"><thead><tr>"
        for column in ["workload", "scheduler", "strategy", "producers", "events", "payload", "rate", "trials"] + metrics.map(\.2) + ["failures"] {
            let numeric = !["workload", "scheduler", "strategy"].contains(column)
            html += "<th\(numeric ? " class=\"number\"" : "")>\(escape(column))</th>"
        }
        html += "</tr></thead><tbody>"
        for result in run.cases {
            let c = result.benchCase
            let timed = result.trials.filter { $0.trial != TrialRecord.countingTrial }.count
            html += "<tr><td>\(escape(c.workload.rawValue))</td><td>\(escape(c.scheduler.rawValue))</td><td>\(escape(c.strategy.rawValue))</td>"
            for number in [c.producers, c.events, c.payloadBytes, c.rateHz, timed] { html += "<td class=\"number\">\(number)</td>" }
            for (metric, format, _) in metrics {
                if let value = median(result, metric) {
                    html += "<td class=\"number\" data-value=\"\(value)\">\(escape(format.string(value)))</td>"
                } else {
                    html += "<td class=\"number\" data-value=\"-1\"></td>"
                }
            }
            html += "<td class=\"number\">\(Int(result.correctnessFailures))</td></tr>"
        }
        return html + "</tbody></table>"
    }

    // MARK: Scaling

    /// Throughput against producers, per workload × scheduler (and events, payload, rate),
    /// one line per strategy with its 95% interval as a band.
    static func scaling(_ run: ReportInput) -> String {
        let swept = grouped(run.cases.filter { !$0.values(.eventsPerSec).isEmpty }) { c in
            var key = c
            (key.suite, key.strategy, key.producers) = ("", .none, 0)
            return key
        }.filter { Set($0.cases.map(\.benchCase.producers)).count >= 2 }
        guard !swept.isEmpty else { return note("No case in this run varies the number of producers (run with --producers 1,2,4,8 to see scaling).") }
        let charts = swept.map { key, results -> String in
            let strategies = StrategyName.ordered(results.map(\.benchCase.strategy))
            let series = strategies.map { strategy in
                LineChart.Series(
                    name: strategy.rawValue, color: Palette.color(strategy),
                    points: results.filter { $0.benchCase.strategy == strategy }.sorted { $0.benchCase.producers < $1.benchCase.producers }
                        .compactMap { result in
                            let values = result.values(.eventsPerSec)
                            guard let middle = Statistics.median(values) else { return nil }
                            let interval = Statistics.medianInterval(values)
                            return LineChart.Point(x: Double(result.benchCase.producers), y: middle, low: interval?.low, high: interval?.high)
                        })
            }
            var title = "\(key.workload.rawValue) on \(key.scheduler.rawValue), \(ValueFormat.count.string(Double(key.events))) events"
            if key.payloadBytes > 0 { title += ", \(key.payloadBytes) B payload" }
            if key.rateHz > 0 { title += ", \(ValueFormat.count.string(Double(key.rateHz))) Hz" }
            return LineChart(
                title: title, xLabel: "producers (threads)", yLabel: "throughput (events/s)", xFormat: .wholeCount, yFormat: .count, series: series
            ).render(
                id: chartID(
                    "scaling", key.workload.rawValue, key.scheduler.rawValue, String(key.events), String(key.payloadBytes), String(key.rateHz)))
        }
        return note(
            "Median throughput per producer count; the band is the median's 95% interval over the trials. Higher is better; a line that falls as producers are added is contention."
        )
            + figures(charts)
    }

    // MARK: Latency

    static func latency(_ run: ReportInput, p99Limit: Double) -> String {
        var html = ""
        let distributions = grouped(run.cases.filter { run.latency[$0.benchCase] != nil }) { c in
            var key = c
            (key.suite, key.strategy) = ("", .none)
            return key
        }
        if distributions.isEmpty {
            html += note("No latency distributions in this run (latency/*.hgrm): run a latency workload such as observeOn.latency.")
        } else {
            html += note(
                "Each case's latency over all its timed trials, by percentile on HdrHistogram's axis (50, 90, 99, 99.9, …, evenly spaced), so the tail gets the room. Lower is better; where lines part to the right is where strategies differ under pressure."
            )
            html += figures(
                distributions.map { key, results in
                    let order = StrategyName.ordered(results.map(\.benchCase.strategy))
                    let results = results.sorted { order.firstIndex(of: $0.benchCase.strategy)! < order.firstIndex(of: $1.benchCase.strategy)! }
                    let series = results.map { result in
                        LineChart.Series(
                            name: result.benchCase.strategy.rawValue, color: Palette.color(result.benchCase.strategy),
                            points: run.latency[result.benchCase]!.filter { $0.percentile < 100 }.map {
                                LineChart.Point(x: $0.percentile, y: $0.microseconds * 1_000)
                            })
                    }
                    var title = "\(key.workload.rawValue) on \(key.scheduler.rawValue), p=\(key.producers)"
                    if key.rateHz > 0 { title += ", \(ValueFormat.count.string(Double(key.rateHz))) Hz" }
                    if key.payloadBytes > 0 { title += ", \(key.payloadBytes) B payload" }
                    return LineChart(
                        title: title, xLabel: "percentile", yLabel: "latency", xFormat: .percentile, yFormat: .nanoseconds, xKind: .percentile,
                        series: series
                    ).render(
                        id: chartID(
                            "latency", key.workload.rawValue, key.scheduler.rawValue, String(key.producers), String(key.payloadBytes),
                            String(key.rateHz)))
                })
        }
        html += latencyByRate(run, p99Limit: p99Limit)
        return html
    }

    /// p99 against the pacing rate where a run swept rates, with the highest rate each
    /// strategy held under `p99Limit` marked.
    private static func latencyByRate(_ run: ReportInput, p99Limit: Double) -> String {
        let swept = grouped(run.cases.filter { $0.benchCase.rateHz > 0 && !$0.values(.latencyP99).isEmpty }) { c in
            var key = c
            (key.suite, key.strategy, key.rateHz, key.events) = ("", .none, 0, 0)
            return key
        }.filter { Set($0.cases.map(\.benchCase.rateHz)).count >= 2 }
        guard !swept.isEmpty else { return "" }
        let charts = swept.map { key, results -> String in
            let strategies = StrategyName.ordered(results.map(\.benchCase.strategy))
            var markers: [(x: Double, label: String)] = []
            let series = strategies.map { strategy -> LineChart.Series in
                let points = results.filter { $0.benchCase.strategy == strategy }.sorted { $0.benchCase.rateHz < $1.benchCase.rateHz }.compactMap {
                    result -> LineChart.Point? in
                    median(result, .latencyP99).map { LineChart.Point(x: Double(result.benchCase.rateHz), y: $0) }
                }
                if let held = points.last(where: { $0.y <= p99Limit }) {
                    markers.append((held.x, "\(strategy.rawValue): \(ValueFormat.count.string(held.x)) Hz"))
                }
                return LineChart.Series(name: strategy.rawValue, color: Palette.color(strategy), points: points)
            }
            return LineChart(
                title: "\(key.workload.rawValue) on \(key.scheduler.rawValue): p99 by rate", xLabel: "rate (events/s)", yLabel: "p99 latency",
                xFormat: .count, yFormat: .nanoseconds, series: series, markers: markers,
                limit: (p99Limit, "p99 limit \(ValueFormat.nanoseconds.string(p99Limit))")
            ).render(id: chartID("rate", key.workload.rawValue, key.scheduler.rawValue, String(key.producers), String(key.payloadBytes)))
        }
        return "<h3>Latency by rate</h3>"
            + note(
                "Median p99 over the trials at each pacing rate. The green line marks, per strategy, the highest rate whose p99 stayed under the limit (report --p99-limit)."
            )
            + figures(charts)
    }

    // MARK: Periodic

    static func periodic(_ run: ReportInput) -> String {
        let periodic = run.cases.filter { !$0.values(.ticksExpected).isEmpty }
        guard !periodic.isEmpty else { return note("No periodic case in this run (periodic.catchUp).") }
        let labels = compactLabels(run.cases.map(\.benchCase))
        let ticks = BarChart(
            title: "Ticks due and delivered", valueLabel: "ticks", format: .count,
            rows: periodic.map { result in
                BarChart.Row(
                    label: labels[result.benchCase]!,
                    bars: [
                        BarChart.Bar(series: "due", color: Palette.band, value: median(result, .ticksExpected) ?? 0),
                        BarChart.Bar(
                            series: "delivered (\(result.benchCase.strategy.rawValue))", color: Palette.color(result.benchCase.strategy),
                            value: median(result, .ticksDelivered) ?? 0),
                    ])
            })
        let lateness = BarChart(
            title: "Tick lateness, p99", valueLabel: "lateness (p99)", format: .nanoseconds,
            rows: periodic.compactMap { result in
                median(result, .tickLatenessP99).map { value in
                    BarChart.Row(
                        label: labels[result.benchCase]!,
                        bars: [
                            BarChart.Bar(series: result.benchCase.strategy.rawValue, color: Palette.color(result.benchCase.strategy), value: value)
                        ])
                }
            })
        return note(
            "How each policy holds its ticks through the subscriber's stalls: delivered against due (a policy that merges missed ticks delivers fewer), and how late the late ones were."
        )
            + figures([ticks.render(id: chartID("periodic", "ticks")), lateness.render(id: chartID("periodic", "lateness"))])
    }

    // MARK: Resources

    static func resources(_ run: ReportInput) -> String {
        let labels = compactLabels(run.cases.map(\.benchCase))
        func bars(_ title: String, _ valueLabel: String, _ format: ValueFormat, _ value: (CaseResult) -> Double?) -> String? {
            let rows = run.cases.compactMap { result in
                value(result).map { number in
                    BarChart.Row(
                        label: labels[result.benchCase]!,
                        bars: [
                            BarChart.Bar(series: result.benchCase.strategy.rawValue, color: Palette.color(result.benchCase.strategy), value: number)
                        ])
                }
            }
            return rows.isEmpty
                ? nil : BarChart(title: title, valueLabel: valueLabel, format: format, rows: rows).render(id: chartID("resources", title))
        }
        let charts = [
            bars("Allocations per event", "allocations/event", .count) { median($0, .allocsPerEvent) },
            bars("CPU time per event", "CPU time per event", .nanoseconds) { result in
                if let exact = median(result, .cpuNsPerEvent) { return exact }
                // Runs made before cpu_ns_per_event existed.
                guard let user = median(result, .cpuUser), let system = median(result, .cpuSys), result.benchCase.events > 0 else { return nil }
                return (user + system) * 1e9 / Double(result.benchCase.events)
            },
            bars("Context switches per trial", "voluntary + involuntary", .count) { result in
                guard let voluntary = median(result, .ctxVoluntary), let involuntary = median(result, .ctxInvoluntary) else { return nil }
                return voluntary + involuntary
            },
            bars("Peak threads", "threads", .count) { median($0, .threadsPeak) },
            bars("Peak resident memory", "RSS", .bytes) { median($0, .rssPeak) },
        ].compactMap { $0 }
        guard !charts.isEmpty else { return note("No resource counts in this run.") }
        return note(
            "Medians per case, coloured by strategy. Allocations are counted in a separate trial (trial 0); CPU time is the process's (`cpu_ns_per_event`), per event."
        )
            + figures(charts)
    }

    // MARK: Comparison

    static func comparison(_ run: ReportInput, base: ReportInput, thresholds: Thresholds) -> String {
        let comparison = Comparison(base: base.cases, new: run.cases, thresholds: thresholds)
        let verdict = comparison.verdict
        let style: String
        switch verdict {
        case .regressed: style = "fail"
        case .improved: style = "pass"
        case .unchanged: style = "neutral"
        case .inconclusive: style = "warn"
        }
        let counts = Comparison.Verdict.allCases.map { "\(comparison.count($0)) \($0.rawValue)" }.joined(separator: ", ")
        var html =
            "<p><span class=\"verdict \(style)\">\(verdict.rawValue)</span> This run against <code>\(escape(base.path))</code>: \(counts); "
            + "decided for the whole comparison (Holm over \(comparison.hypotheses) tests, 90% confidence).</p>"
        html += note(
            "Each row is a case and metric, changes first: the point is the change, the line its 95% interval, the grey band the threshold either way. Right is worse on every row (for throughput the ratio is BASE/NEW). A row is regressed when its interval lies right of the band for the whole comparison, unchanged when it lies inside it; hover a point for its numbers."
        )
        let labels = compactLabels(comparison.rows.map(\.benchCase))
        // Changes first, as compare's table orders them; run order within a verdict.
        let order: [Comparison.Verdict] = [.regressed, .improved, .inconclusive, .unchanged]
        let sorted = comparison.rows.enumerated().sorted { lhs, rhs in
            let (l, r) = (order.firstIndex(of: lhs.element.verdict)!, order.firstIndex(of: rhs.element.verdict)!)
            return l != r ? l < r : lhs.offset < rhs.offset
        }.map(\.element)
        let rows = sorted.compactMap { row -> ForestPlot.Row? in
            guard let estimate = Comparison.worse(row.estimate, row.metric), let interval = Comparison.worse(row.interval95, row.metric) else {
                return nil
            }
            return ForestPlot.Row(
                label: "\(labels[row.benchCase]!) \(row.metric.rawValue)", worse: estimate.ratio, low: interval.low, high: interval.high,
                threshold: row.threshold, verdict: row.verdict)
        }
        if rows.isEmpty { return html + note("No case and metric measured on both sides.") }
        html += figures([ForestPlot(title: "Change per case and metric", rows: rows).render(id: chartID("comparison"))])
        let unstable = sorted.filter { $0.unstableRepeat != nil }
        if !unstable.isEmpty {
            html +=
                note("Left undecided: two instruction counts of one build, made in two processes, differed by more than a third of the threshold.")
                + "<ul>"
                + unstable.map { row in
                    "<li>\(escape(labels[row.benchCase]!)) \(row.metric.rawValue): \(String(format: "%.1f%%", row.unstableRepeat! * 100))</li>"
                }.joined() + "</ul>"
        }
        if !comparison.onlyInBase.isEmpty || !comparison.onlyInNew.isEmpty {
            html +=
                "<ul>" + comparison.onlyInBase.map { "<li>only in BASE: \(escape(label($0)))</li>" }.joined()
                + comparison.onlyInNew.map { "<li>only in this run: \(escape(label($0)))</li>" }.joined() + "</ul>"
        }
        return html
    }
}
