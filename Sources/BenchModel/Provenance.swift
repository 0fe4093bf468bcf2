import Foundation

/// Where and how a run was made: the provenance columns on every CSV row.
///
/// Part of it is the run's *testbed*: what a measurement depends on besides the code —
/// CPU model, cores, kernel, Swift, build configuration, CPU frequency governor and cgroup
/// CPU limit (`testbed`). Runs on different testbeds can differ by 2× with the same code, so
/// `compare` warns when they differ (`testbedDifferences(from:)`). The load average at the
/// start is recorded too, but is not part of the testbed: it says whether the machine was
/// busy, not what it is.
package struct Provenance: Codable, Sendable, Equatable {
    package var runID: String
    package var timestamp: String
    package var host: String
    package var cpu: String
    package var cores: Int
    package var os: String
    package var swift: String
    package var commit: String
    package var build: String
    /// The kernel release (`uname -r`).
    package var kernel: String
    /// cpu0's frequency scaling governor (`performance`, `powersave`, …), or `none` where
    /// the kernel exposes no frequency scaling (most VMs).
    package var governor: String
    /// The cgroup's CPU limit in cores (`1.50`), or `none`.
    package var cpuLimit: String
    /// The 1-minute load average when the run started.
    package var loadAverage: String

    /// A value this run's files do not record (they were written before it was).
    package static let unrecorded = "unrecorded"

    package static let columns = [
        "run_id", "timestamp", "host", "cpu", "cores", "os", "swift", "commit", "build", "kernel", "governor", "cpu_limit", "load_avg",
    ]
    /// The columns every results file has; the later ones are read as `unrecorded` when missing.
    package static let requiredColumns = Array(columns.prefix(9))

    package var columnValues: [String] {
        [runID, timestamp, host, cpu, String(cores), os, swift, commit, build, kernel, governor, cpuLimit, loadAverage]
    }

    package init(
        runID: String, timestamp: String, host: String, cpu: String, cores: Int, os: String, swift: String, commit: String, build: String,
        kernel: String = Provenance.unrecorded, governor: String = Provenance.unrecorded, cpuLimit: String = Provenance.unrecorded,
        loadAverage: String = Provenance.unrecorded
    ) {
        self.runID = runID
        self.timestamp = timestamp
        self.host = host
        self.cpu = cpu
        self.cores = cores
        self.os = os
        self.swift = swift
        self.commit = commit
        self.build = build
        self.kernel = kernel
        self.governor = governor
        self.cpuLimit = cpuLimit
        self.loadAverage = loadAverage
    }

    private enum CodingKeys: String, CodingKey {
        case runID, timestamp, host, cpu, cores, os, swift, commit, build, kernel, governor, cpuLimit, loadAverage
    }

    /// Decodes what a child of a build from before the testbed fields sends too (the child
    /// protocol's version did not change): their values are then `unrecorded`.
    package init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            runID: try values.decode(String.self, forKey: .runID), timestamp: try values.decode(String.self, forKey: .timestamp),
            host: try values.decode(String.self, forKey: .host), cpu: try values.decode(String.self, forKey: .cpu),
            cores: try values.decode(Int.self, forKey: .cores), os: try values.decode(String.self, forKey: .os),
            swift: try values.decode(String.self, forKey: .swift), commit: try values.decode(String.self, forKey: .commit),
            build: try values.decode(String.self, forKey: .build),
            kernel: try values.decodeIfPresent(String.self, forKey: .kernel) ?? Self.unrecorded,
            governor: try values.decodeIfPresent(String.self, forKey: .governor) ?? Self.unrecorded,
            cpuLimit: try values.decodeIfPresent(String.self, forKey: .cpuLimit) ?? Self.unrecorded,
            loadAverage: try values.decodeIfPresent(String.self, forKey: .loadAverage) ?? Self.unrecorded)
    }

    /// The testbed: the columns a measurement depends on besides the code, by column name.
    package var testbed: [(column: String, value: String)] {
        [
            ("cpu", cpu), ("cores", String(cores)), ("kernel", kernel), ("swift", swift), ("build", build),
            ("governor", governor), ("cpu_limit", cpuLimit),
        ]
    }

    /// The testbed in one text (`cpu=…; cores=2; kernel=…; …`): runs compare in a history
    /// only when theirs are equal.
    package var testbedKey: String {
        testbed.map { "\($0.column)=\($0.value)" }.joined(separator: "; ")
    }

    /// Whether every testbed column was recorded. A run from before the fingerprint was added
    /// matches nothing in a history: nothing says it ran on the same kind of machine.
    package var testbedIsRecorded: Bool {
        !testbed.contains { $0.value == Self.unrecorded }
    }

    /// How `new`'s testbed differs from this one (BASE), one phrase per column
    /// (`cpu 'A' vs 'B'`); a column a side does not record is a difference too (nothing says
    /// they match).
    package func testbedDifferences(from new: Provenance) -> [String] {
        zip(testbed, new.testbed).compactMap { base, new in
            switch (base.value == Self.unrecorded, new.value == Self.unrecorded) {
            case (true, true): return "\(base.column) recorded by neither run"
            case (true, false): return "\(base.column) not recorded by BASE"
            case (false, true): return "\(base.column) not recorded by NEW"
            case (false, false): return base.value == new.value ? nil : "\(base.column) '\(base.value)' vs '\(new.value)'"
            }
        }
    }
}
