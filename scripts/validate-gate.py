#!/usr/bin/env python3
"""Measures the error rates of the CI gate on real runs of this machine, the way users meet
them: false alarms of a build against itself, detections of a truly slower build.

Conditions (each run GATES times, with LOAD busy loops `yes > /dev/null` beside it):
  aa      the same build on both sides
  oneP    one case asked to be P% slower (one10: 10%; VALIDATION_SLOWED, by default the
          campaign's slowed case); what it realized is reported
  allP    every case asked to be P% slower (all3: 3%, inside the default 5% threshold)
Each gate is `schedbench gate --rounds ROUNDS --thresholds ci/thresholds.json` on a fixed
case set (TIME below), whose verdict is the paired decision the gate ships with; the same
rounds are then judged again with Welch's test (`schedbench compare BASE NEW`, the rounds
as independent trials), so both methods are rated on the same runs.

With --instructions: each gate is the pull-request workflow's gate on instruction counts
instead (INSTRUCTIONS below: 2 rounds, instructions per event, a 3% threshold), and the
slowed case's change is read from its instruction count. oneP and allP then add P% to the
counts themselves (oneP 0.1 points more, so that a change asked at a threshold lands past it
by more than the spin's own drift): a counted spin (SCHEDBENCH_SLOWDOWN=CASE:countSpin=TURNS,
one block of spin after each counting trial has settled, counted into it) sized from each case's count in
one unslowed run of the case set and what one turn of the spin counts (OUT/count-calibration.csv,
made on the campaign's first start and kept: a campaign continued later, even in another
session, asks its cases for the same instructions).

With --history: a fresh SQLite history of HISTORY_RUNS runs of the build, then GATES runs
of the same build and GATES of the build with one case 10% slower, each judged by
`compare --history` (and not added, unless --slide: then each run of the unchanged build is
added after it is judged, as CI adds main's runs, so the window slides with the machine's
drift); the history (OUT/history.sqlite) and each run with its verdict (OUT/history-runs/)
are kept.

The slower build is the ValidationSlowdown build of the measuring executable
(schedbench-builtins) with SCHEDBENCH_SLOWDOWN set for the candidate only (a wrapper
script); the baseline is the same binary without it. The tool beside it (schedbench) runs
every gate, run and comparison. The realized
slowdown of each slowed case is reported: the mean of the gates' own paired estimates.

Every gate's outcome is appended to OUT/gates.csv (history runs to OUT/history.csv) as it
finishes (a campaign started again on the same OUT numbers its gates after those there), with its comparison.csv (paired), welch.csv and both sides' results.csv (a round
per trial) kept under OUT/comparisons/, so an
interrupted campaign keeps what it measured; --summary OUT prints the tables from those
files without running anything.

    scripts/validate-gate.py --conditions aa,one10,all3 --gates 30 --out results/validation
    scripts/validate-gate.py --calibrate --conditions aa,one10 --gates 30 --out results/validation
    scripts/validate-gate.py --load 2 --conditions aa --gates 30 --out results/validation
    scripts/validate-gate.py --instructions --conditions aa,one3,all1 --gates 30 --out results/validation-instructions
    VALIDATION_SLOWED=observeOn.throughput/mainAsync/drain/p1 scripts/validate-gate.py --instructions --conditions one3 --gates 30 --out results/validation-instructions-cross
    scripts/validate-gate.py --history --gates 30 --out results/validation
    scripts/validate-gate.py --history --slide --gates 30 --out results/validation-sliding
    scripts/validate-gate.py --summary results/validation
"""
import argparse
import csv
import math
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
THRESHOLDS = ["--thresholds", os.path.join(ROOT, "ci", "thresholds.json")]
# The tool (schedbench) beside the measuring executable; set in main.
TOOL = None


class Campaign:
    """What a campaign's gates are: the gate's own options (beside --baseline, --candidate,
    --rounds, --out), the options that decide (the gate's, and `compare`'s when it judges
    the same rounds with Welch's test), the cases after the gate's `--`, the slowed case (a
    prefix of a case's name, for SCHEDBENCH_SLOWDOWN), the metric its realized change is
    read from, and the rounds unless --rounds says otherwise."""

    def __init__(self, gate_options, decision, cases, slowed, metric, rounds):
        self.gate_options, self.decision, self.cases = gate_options, decision, cases
        self.slowed, self.metric, self.rounds = slowed, metric, rounds


# The pull-request gate on time: `ci/thresholds.json`, 10 rounds, on 18 cases: a hand-off
# (observe(on:), RxSwift's algorithm and the drain) and a scheduling workload on the
# trampoline, a serial and a concurrent queue, 1 and 4 producers. The slowed case is one
# that runs on one thread, where a trial's spread was about 5% (2026-11-27). A gate took
# 1.2-2.2 minutes here.
TIME = Campaign(
    [], THRESHOLDS,
    ["--suite", "default",
     "--workload", "observeOn.throughput,schedule.throughput",
     "--scheduler", "currentThread,serial,concurrent",
     "--strategy", "reference,drain,batched,none",
     "--producers", "1,4",
     "--events", "30000",
     "--warmup", "1"],
    os.environ.get("VALIDATION_SLOWED", "schedule.throughput/currentThread/none/p1"), "ns_per_event", 10)
# The pull-request gate on instruction counts, as .github/workflows/performance.yml runs it
# (2 rounds, one trial a round, instructions per event only, a 3% threshold; a row changed,
# or stable and undecided past the threshold, counted again in 2 more rounds) on the
# `instructions` suite: 50 cases, each counted in two valgrind processes a round, 68-92 s a
# gate idle on 2 cores here (2026-12-01). The slowed case is the trampoline's, whose count
# repeats: 120.000 instructions an event, to within 0.001, in a process of the whole case set and
# alone, since each count starts with a dump of what came before it (before that, each
# counting process on one processor, 119.49 or about 119.99 among the 50 and 120.03 alone;
# 2026-12-02). A hand-off's count moves between processes:
# subscribeOn.cycle on mainAsync's paired ratio by about 0.10% from round to round; most
# others' counts (per-block dispatch among them) often by more than 1% between a round's
# two processes, which leaves the row undecided. Its slowdowns are counted spins (COUNTS
# below), added to a case's count after its trial has settled.
INSTRUCTIONS = Campaign(
    ["--trials-per-round", "1"], ["--metric", "instructions_per_event", "--threshold", "3%"],
    ["--suite", "instructions",
     "--instructions", "--no-allocations", "--warmup", "0"],
    os.environ.get("VALIDATION_SLOWED", "trampoline.nested/currentThread/none/p1"), "instructions_per_event", 2)
# The campaign this run validates (--instructions chooses INSTRUCTIONS).
CAMPAIGN = TIME
# By default the spin is sized from the case's own cost in each process, and what it
# realizes is reported from the gates' own estimates; sized that way, asked 10%, it realized
# +7.4% to +12.0% over six idle gates. With --calibrate (or --spin), the oneP conditions
# slow the case by a fixed spin instead, the same in every process, whose turns were found
# by two gates of the full case set (calibrate()): what a gate then sees moves only with
# the machine. (Calibrating from separate runs, not gates, was tried and dropped: between
# processes this case moves by ±10%, more than the effect, while a gate's paired rounds
# see it.)
# The fixed spin of each oneP percentage, once calibrated or given: {percent: turns}.
SPIN = {}
# With --instructions, each case's instructions per event unslowed ({case name: count}, the
# name as workload/scheduler/strategy/pN) and what one turn of the spin adds to an event's
# count (TURN), from count_calibration().
COUNTS = {}
TURN = None
# The case whose count sizes the spin's turn: single-threaded, its count repeats exactly.
TURN_CASE = "trampoline.nested/currentThread/none/p1"
# Percentage points a oneP counted spin is sized past P: the spin's own count moved by up to
# 0.02 instructions an event between gates (0.017% of the trampoline's 120), so a change
# sized onto a P% threshold realized +2.984% to +3.004% and was undecidable either way
# (journal, "2026-11-30 (late morning)"). A change exactly on the threshold is not one a
# gate can be asked to catch; 0.1 points past it is five times the spin's drift.
PAST_THRESHOLD = 0.1


def parse_condition(condition):
    """(kind, percent) of a condition: ("aa", 0), ("one", P) or ("all", P); a KeyError for
    anything else."""
    if condition == "aa":
        return "aa", 0
    for prefix in ("one", "all"):
        if condition.startswith(prefix) and condition[len(prefix):].isdigit() and int(condition[len(prefix):]) > 0:
            return prefix, int(condition[len(prefix):])
    raise KeyError(condition)


def counted_turns(count, percent, turn):
    """Turns of a counted spin per event that add at least `percent`% to `count`
    instructions an event when a turn counts `turn`: the exact share, rounded up to the
    next hundredth of a turn (the last hundredth is then at most 0.01 × `turn` instructions
    over), so that a count which repeats exactly lands past a threshold of `percent`%, not on it."""
    return (math.floor(percent / 100 * count / turn * 100 + 1e-9) + 1) / 100


def slowdown(condition):
    """The SCHEDBENCH_SLOWDOWN request of a condition: aa (none), oneP (the slowed case P%
    slower: a fixed spin when SPIN has one for P), allP (every case P% slower); None for aa,
    and a KeyError for anything else. With --instructions (COUNTS sized), oneP and allP
    are counted spins of each case's count: P% for allP, P + PAST_THRESHOLD for oneP."""
    kind, percent = parse_condition(condition)
    if kind == "aa":
        return None
    if COUNTS:
        cases = [case for case in COUNTS if case.startswith(CAMPAIGN.slowed)] if kind == "one" else list(COUNTS)
        if not cases:
            sys.exit(f"error: no case of the campaign is named {CAMPAIGN.slowed}… (VALIDATION_SLOWED): it has {', '.join(sorted(COUNTS))}")
        asked = percent + PAST_THRESHOLD if kind == "one" else percent
        return ",".join(f"{case}/:countSpin={counted_turns(COUNTS[case], asked, TURN):.2f}" for case in cases)
    target = CAMPAIGN.slowed if kind == "one" else "*"
    if kind == "one" and percent in SPIN:
        return f"{target}:spin={SPIN[percent]}"
    return f"{target}:{percent}"


def case_name(row):
    """A CSV row's case as workload/scheduler/strategy/pN (a prefix of its benchmark name)."""
    return f"{row.get('workload', '')}/{row.get('scheduler', '')}/{row.get('strategy', '')}/p{row.get('producers', '')}"


def instruction_counts(results_csv):
    """Instructions per event of each case of a run's results.csv, by workload/scheduler/strategy/pN."""
    counts = {}
    with open(results_csv, newline="") as file:
        for row in csv.DictReader(file):
            if row.get("metric") == "instructions_per_event" and row.get("value"):
                counts[case_name(row)] = float(row["value"])
    return counts


def count_calibration(binary, out, probe=10):
    """Sizes the counted spins (COUNTS and TURN), from OUT/count-calibration.csv when a
    start of the campaign made it, else measured and written there: each case's count from
    one run of the case set without a slowdown, and TURN from two runs of the turn case
    alone, with a counted spin of `probe` turns an event and without. Counted alone, a case
    could sit on another level than in the whole set (the trampoline, each counting process
    on one processor, before each count started with a dump: 120.03 instructions an event
    alone, 119.49 among the 50; 2026-12-02), so the turn is the difference of two runs of
    the same shape; against the whole set's count it took that level's difference for a
    spin's (1.432 a turn, not 1.377)."""
    global TURN
    path = os.path.join(out, "count-calibration.csv")
    if os.path.exists(path):
        rows = list(csv.DictReader(open(path, newline="")))
        COUNTS.update({row["case"]: float(row["instructions_per_event"]) for row in rows})
        TURN = float(rows[0]["turn_instructions"])
        print(f"counted spins sized by {path}: {len(COUNTS)} cases, a turn {TURN:.3f} instructions", flush=True)
        return
    scratch = tempfile.mkdtemp(prefix="validate-counts-")
    try:
        plain = os.path.join(scratch, "plain")
        measure(wrapper(binary, None, scratch), [*CAMPAIGN.cases, "--trials", "1", "--out", plain, "--quiet", "--no-table"])
        counts = instruction_counts(os.path.join(plain, "results.csv"))
        workload, scheduler, strategy, producers = TURN_CASE.split("/")
        alone = {}
        for turns in (0, probe):
            directory = os.path.join(scratch, f"alone-{turns}")
            measure(wrapper(binary, f"{TURN_CASE}/:countSpin={turns}" if turns else None, scratch),
                    [*CAMPAIGN.cases, "--workload", workload, "--scheduler", scheduler, "--strategy", strategy, "--producers", producers[1:],
                     "--trials", "1", "--out", directory, "--quiet", "--no-table"])
            alone[turns] = instruction_counts(os.path.join(directory, "results.csv")).get(TURN_CASE)
        if TURN_CASE not in counts or None in alone.values():
            sys.exit(f"error: the calibration runs have no instructions_per_event row for {TURN_CASE}")
        turn = (alone[probe] - alone[0]) / probe
        if turn <= 0:
            sys.exit(f"error: a counted spin of {probe} turns did not add to {TURN_CASE}'s count alone ({alone[0]} and {alone[probe]}): cannot size the slowdowns")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    for case, count in sorted(counts.items()):
        append(path, ["case", "instructions_per_event", "turn_instructions"],
               {"case": case, "instructions_per_event": f"{count:.4f}", "turn_instructions": f"{turn:.4f}"})
    COUNTS.update(counts)
    TURN = turn
    print(f"counted spins sized: {len(COUNTS)} cases, a turn {TURN:.3f} instructions ({path})", flush=True)


def calibrate(binary, percent, rounds, out, probe=60):
    """The spin turns that make the slowed case `percent`% slower in ns/event as the
    campaign's own gates see it: two gates of the full case set (ROUNDS rounds each, both
    sides this binary, the candidate with a fixed spin of 0 and of `probe` turns), and the
    line through their estimates: the spin's fixed part (its locked operation) costs the
    case a share of its own, each turn a little more. Gates of the slowed case alone were
    tried and dropped: alone in its processes this case's estimate spread by ±15–25%
    (−7% to +44% for spins of 16 to 200 turns). Both gates go to OUT/calibration.csv."""
    scratch = tempfile.mkdtemp(prefix="validate-calibrate-")
    plain = wrapper(binary, None, scratch)
    points = []
    try:
        for turns in (0, probe):
            directory = os.path.join(scratch, f"spin-{turns}")
            gate = subprocess.run(
                gate_command(plain, wrapper(binary, f"{CAMPAIGN.slowed}:spin={turns}", scratch), rounds, directory),
                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            if gate.returncode not in (0, 2):
                sys.stderr.write(gate.stderr[-2000:])
                sys.exit(f"error: calibration gate (spin={turns}) exited {gate.returncode}")
            _, estimates = regressed_rows(os.path.join(directory, "comparison.csv"))
            if not estimates:
                sys.exit(f"error: the calibration gate (spin={turns}) has no {CAMPAIGN.metric} row for {CAMPAIGN.slowed}")
            realized = (float(estimates[0]) - 1) * 100
            points.append((turns, realized))
            append(os.path.join(out, "calibration.csv"), ["percent", "turns", "realized_percent"],
                   {"percent": percent, "turns": turns, "realized_percent": f"{realized:.2f}"})
            print(f"calibration for {percent}%: spin={turns} realized {realized:+.2f}%", flush=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    (_, fixed), (_, probed) = points
    per_turn = (probed - fixed) / probe
    if per_turn <= 0:
        sys.exit(f"error: {probe} turns did not slow {CAMPAIGN.slowed} more than none ({fixed:+.2f}% and {probed:+.2f}%): cannot calibrate")
    if percent <= fixed:
        print(f"warning: the spin's fixed part alone realized {fixed:+.2f}%, at least the {percent}% asked: spin=0", flush=True)
    turns = max(0, round((percent - fixed) / per_turn))
    print(f"calibration for {percent}%: spin={turns}", flush=True)
    return turns


FIELDS = ["condition", "load", "trials_per_round", "gate", "seconds", "paired_exit", "paired_regressed", "welch_exit", "welch_regressed",
          "slowed_estimates", "slowdown"]
HISTORY_FIELDS = ["condition", "load", "run", "exit", "regressed", "slowed_estimates"]


def build():
    """The release schedbench-builtins with the ValidationSlowdown trait, and the tool beside it."""
    scratch = os.path.join(ROOT, ".build-validation")
    for product in ("schedbench-builtins", "schedbench"):
        subprocess.run(
            ["swift", "build", "-c", "release", "--traits", "ValidationSlowdown", "--product", product, "--scratch-path", scratch],
            cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    return os.path.join(scratch, "release", "schedbench-builtins")


def wrapper(binary, slowdown, directory, name=None):
    """An executable that runs `binary` with SCHEDBENCH_SLOWDOWN set (or unset), named
    after `name` or else after the slowdown."""
    name = name or ("plain" if slowdown is None else "".join(c if c.isalnum() else "-" for c in slowdown.replace("*", "all"))[:100])
    path = os.path.join(directory, f"schedbench-{name}")
    with open(path, "w") as file:
        file.write("#!/bin/sh\n")
        file.write("unset SCHEDBENCH_SLOWDOWN\n" if slowdown is None else f"export SCHEDBENCH_SLOWDOWN='{slowdown}'\n")
        file.write(f"exec '{binary}' \"$@\"\n")
    os.chmod(path, os.stat(path).st_mode | stat.S_IEXEC)
    return path


def gate_command(plain, candidate, rounds, directory, trials_per_round=None):
    """The campaign's gate: `plain` (the unchanged build) as the baseline, `candidate` on
    the other side, results in `directory`."""
    return [TOOL, "gate", "--baseline", plain, "--candidate", candidate, "--rounds", str(rounds),
            *(["--trials-per-round", str(trials_per_round)] if trials_per_round else []),
            *CAMPAIGN.gate_options, *CAMPAIGN.decision, "--out", directory, "--format", "csv", "--", *CAMPAIGN.cases]


def regressed_rows(comparison_csv):
    """The rows decided 'regressed', and the estimates of the slowed case's metric."""
    rows, estimates = [], []
    if not os.path.exists(comparison_csv):
        return rows, estimates
    with open(comparison_csv, newline="") as file:
        for row in csv.DictReader(file):
            name = case_name(row)
            if row.get("verdict") == "regressed":
                rows.append(f"{name} {row.get('metric')}")
            if row.get("metric") == CAMPAIGN.metric and name.startswith(CAMPAIGN.slowed) and row.get("ratio"):
                estimates.append(row["ratio"])
    return rows, estimates


def keep(directory, names, kept):
    """Moves the files `names` of `directory` that exist into `kept` (made if need be)."""
    os.makedirs(kept, exist_ok=True)
    for name in names:
        if os.path.exists(os.path.join(directory, name)):
            os.replace(os.path.join(directory, name), os.path.join(kept, name))
    return kept


def busy_loops(count):
    return [subprocess.Popen(["yes"], stdout=subprocess.DEVNULL) for _ in range(count)]


def append(path, fields, row):
    new = not os.path.exists(path)
    with open(path, "a", newline="") as file:
        writer = csv.DictWriter(file, fieldnames=fields)
        if new:
            writer.writeheader()
        writer.writerow(row)


def run_gates(binary, conditions, gates, rounds, load, out, trials_per_round=(None,)):
    """GATES gates of each condition and each trials-per-round value, interleaved (gate 1
    of every combination, then gate 2, …) so that the machine's quiet and noisy spells
    fall on all of them alike. With more than one trials-per-round value, each value's
    gates go to OUT/kN/."""
    scratch = tempfile.mkdtemp(prefix="validate-gate-")
    plain = wrapper(binary, None, scratch)
    loops = busy_loops(load)
    # Each combination's gates are numbered after those an earlier start left in this OUT.
    done = {}
    try:
        for gate in range(1, gates + 1):
            for trials, condition in [(trials, condition) for trials in trials_per_round for condition in conditions]:
                gate_out = out if len(trials_per_round) == 1 else os.path.join(out, f"k{trials or 'default'}")
                os.makedirs(gate_out, exist_ok=True)
                if (trials, condition) not in done:
                    done[(trials, condition)] = gates_done(os.path.join(gate_out, "gates.csv"), condition, load, trials)
                gate_number = done[(trials, condition)] + gate
                candidate = plain if slowdown(condition) is None else wrapper(binary, slowdown(condition), scratch, condition)
                directory = os.path.join(scratch, f"{condition}-{trials}-{gate_number}")
                started = time.time()
                paired = subprocess.run(
                    gate_command(plain, candidate, rounds, directory, trials), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                seconds = time.time() - started
                if paired.returncode not in (0, 2):
                    sys.stderr.write(paired.stderr[-2000:])
                    sys.exit(f"error: gate {condition} {gate_number} exited {paired.returncode}")
                paired_rows, estimates = regressed_rows(os.path.join(directory, "comparison.csv"))
                welch_csv = os.path.join(directory, "welch.csv")
                welch = subprocess.run(
                    [TOOL, "compare", os.path.join(directory, "baseline"), os.path.join(directory, "candidate"),
                     *CAMPAIGN.decision, "--format", "csv"],
                    stdout=open(welch_csv, "w"), stderr=subprocess.DEVNULL)
                welch_rows, _ = regressed_rows(welch_csv)
                append(os.path.join(gate_out, "gates.csv"), FIELDS, {
                    "condition": condition, "load": load, "trials_per_round": trials or "default", "gate": gate_number, "seconds": f"{seconds:.0f}",
                    "paired_exit": paired.returncode, "paired_regressed": "; ".join(paired_rows),
                    "welch_exit": welch.returncode, "welch_regressed": "; ".join(welch_rows),
                    "slowed_estimates": " ".join(estimates), "slowdown": described(slowdown(condition))})
                print(f"{condition} load {load} trials per round {trials or 'default'} gate {gate_number}: paired exit {paired.returncode} ({len(paired_rows)} regressed), "
                      f"Welch exit {welch.returncode} ({len(welch_rows)}), {seconds:.0f} s", flush=True)
                kept = keep(directory, ("comparison.csv", "welch.csv"), os.path.join(gate_out, "comparisons", f"{condition}-load{load}-{gate_number}"))
                # Each side's rounds (trial r is round r), for judging other decision rules later.
                for side in ("baseline", "candidate"):
                    results = os.path.join(directory, side, "results.csv")
                    if os.path.exists(results):
                        os.replace(results, os.path.join(kept, f"{side}.csv"))
                shutil.rmtree(directory, ignore_errors=True)
    finally:
        for loop in loops:
            loop.kill()
        shutil.rmtree(scratch, ignore_errors=True)


def gates_done(gates_csv, condition, load, trials):
    """The highest gate number of `condition` at `load` busy loops and `trials` trials a
    round in `gates_csv`, 0 when it has none."""
    if not os.path.exists(gates_csv):
        return 0
    rows = csv.DictReader(open(gates_csv, newline=""))
    return max((int(r["gate"]) for r in rows if r["condition"] == condition and r["load"] == str(load)
                and r["trials_per_round"] == str(trials or "default")), default=0)


def described(request):
    """A slowdown request as gates.csv records it: itself, or for one that names every case
    (allP with counted spins), what it is and where its sizes are."""
    if request is None:
        return ""
    if len(request) > 200:
        return f"every case: countSpin of its count's share (count-calibration.csv), {request.count(',') + 1} requests"
    return request


def measure(target, arguments):
    """`schedbench run arguments…` measuring with `target`."""
    subprocess.run([TOOL, "run", *arguments], env={**os.environ, "SCHEDBENCH_TARGET": target}, check=True, stdout=subprocess.DEVNULL)


def run_history(binary, runs, gates, load, out, slide=False):
    scratch = tempfile.mkdtemp(prefix="validate-history-")
    plain = wrapper(binary, None, scratch)
    slowed = wrapper(binary, slowdown("one10"), scratch)
    history = os.path.join(scratch, "history.sqlite")
    loops = busy_loops(load)
    try:
        for run in range(1, runs + 1):
            measure(plain, [*CAMPAIGN.cases, "--trials", "5", "--history", history, "--out", os.path.join(scratch, f"h{run}"), "--quiet", "--no-table"])
            print(f"history run {run} of {runs} added", flush=True)
        for run in range(1, gates + 1):
            for condition, target in (("aa", plain), ("one10", slowed)):
                directory = os.path.join(scratch, f"{condition}-{run}")
                measure(target, [*CAMPAIGN.cases, "--trials", "5", "--out", directory, "--quiet", "--no-table"])
                verdict_csv = os.path.join(directory, "verdict.csv")
                result = subprocess.run(
                    [TOOL, "compare", "--history", history, directory, *THRESHOLDS,
                     "--format", "csv"], stdout=open(verdict_csv, "w"), stderr=subprocess.DEVNULL)
                rows, estimates = regressed_rows(verdict_csv)
                if slide and condition == "aa":
                    # As main's runs are: judged, then added, so the next window holds it.
                    subprocess.run([TOOL, "history", "add", directory, "--db", history], check=True, stdout=subprocess.DEVNULL)
                append(os.path.join(out, "history.csv"), HISTORY_FIELDS, {
                    "condition": condition, "load": load, "run": run, "exit": result.returncode,
                    "regressed": "; ".join(rows), "slowed_estimates": " ".join(estimates)})
                print(f"history {condition} load {load} run {run}: exit {result.returncode} ({len(rows)} regressed)", flush=True)
                # The run and its verdict, to judge them again (compare --history against the kept history).
                keep(directory, ("results.csv", "verdict.csv"), os.path.join(out, "history-runs", f"{condition}-load{load}-{run}"))
                shutil.rmtree(directory, ignore_errors=True)
        os.replace(history, os.path.join(out, "history.sqlite"))
    finally:
        for loop in loops:
            loop.kill()
        shutil.rmtree(scratch, ignore_errors=True)


def geometric_mean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def summary(out):
    lines = []
    gates_csv = os.path.join(out, "gates.csv")
    if os.path.exists(gates_csv):
        rows = list(csv.DictReader(open(gates_csv, newline="")))
        lines += ["| condition | busy loops | gates | paired: exit 2 | Welch: exit 2 | the slowed case's change (geometric mean of the gates' estimates) | minutes per gate |",
                  "|---|---:|---:|---:|---:|---:|---:|"]
        for (condition, load) in sorted({(r["condition"], r["load"]) for r in rows}):
            subset = [r for r in rows if r["condition"] == condition and r["load"] == load]
            estimates = [float(v) for r in subset for v in r["slowed_estimates"].split()]
            realized = f"{(geometric_mean(estimates) - 1) * 100:+.1f}%" if estimates else "-"
            minutes = sum(float(r["seconds"]) for r in subset) / len(subset) / 60
            lines.append(f"| {condition} | {load} | {len(subset)} | {sum(r['paired_exit'] == '2' for r in subset)} | "
                         f"{sum(r['welch_exit'] == '2' for r in subset)} | {realized} | {minutes:.1f} |")
    history_csv = os.path.join(out, "history.csv")
    if os.path.exists(history_csv):
        rows = list(csv.DictReader(open(history_csv, newline="")))
        lines += ["", "| compare --history | busy loops | runs | exit 2 | the slowed case's change |", "|---|---:|---:|---:|---:|"]
        for (condition, load) in sorted({(r["condition"], r["load"]) for r in rows}):
            subset = [r for r in rows if r["condition"] == condition and r["load"] == load]
            estimates = [float(v) for r in subset for v in r["slowed_estimates"].split()]
            realized = f"{(geometric_mean(estimates) - 1) * 100:+.1f}%" if estimates else "-"
            lines.append(f"| {condition} | {load} | {len(subset)} | {sum(r['exit'] == '2' for r in subset)} | {realized} |")
    lines += rules_summary(out)
    print("\n".join(lines) if lines else f"nothing measured in {out} yet")


def holm(pvalues):
    """Holm's step-down adjustment of `pvalues` (a dict key -> p)."""
    ordered = sorted(pvalues.items(), key=lambda item: item[1])
    adjusted, running = {}, 0.0
    for rank, (key, p) in enumerate(ordered):
        running = max(running, min(1.0, (len(ordered) - rank) * p))
        adjusted[key] = running
    return adjusted


def hypotheses(comparison_csv):
    """Each (case, metric) hypothesis's one-sided p-value ("worse by more than the
    threshold"); ns/event and events/s of a case are one hypothesis, as in the gate."""
    found = {}
    for row in csv.DictReader(open(comparison_csv, newline="")):
        if not row.get("p_value"):
            continue
        metric = "ns_per_event" if row["metric"] == "events_per_sec" else row["metric"]
        key = (row["workload"], row["scheduler"], row["strategy"], row["producers"], metric)
        found[key] = min(float(row["p_value"]), found.get(key, 1.0))
    return found


def family_fails(pvalues, level=0.10, selected=lambda key: True):
    """Whether Holm's procedure over the hypotheses `selected` chooses rejects one at `level`."""
    return any(p <= level for p in holm({k: v for k, v in pvalues.items() if selected(k)}).values())


def is_time(key):
    return key[4] == "ns_per_event"


# Decision rules, each a function of the hypotheses' p-values: whether the gate fails.
RULES = {
    "family-wise over every metric (shipped)": lambda h: family_fails(h),
    "time first: 0.08 over ns/event, 0.02 over the rest": lambda h: (
        family_fails(h, 0.08, is_time) or family_fails(h, 0.02, lambda key: not is_time(key))),
    "ns/event only, family-wise": lambda h: family_fails(h, selected=is_time),
    "per row (no family)": lambda h: any(p <= 0.10 for p in h.values()),
}


def regularized_beta(x, a, b):
    """I_x(a, b): the continued fraction of the incomplete beta function, evaluated by the
    modified Lentz method on the side of x where it converges fast."""
    if x <= 0 or x >= 1:
        return 0.0 if x <= 0 else 1.0
    if x > (a + 1) / (a + b + 2):
        return 1 - regularized_beta(1 - x, b, a)
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 + numerator * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + numerator / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1) < 1e-12:
            break
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log(1 - x))
    return front * h / a


def student_t_sf(t, df):
    """P(T > t) for Student's t with `df` degrees of freedom."""
    tail = regularized_beta(df / (df + t * t), df / 2, 0.5)  # P(|T| > |t|)
    return tail / 2 if t > 0 else 1 - tail / 2


def t_quantile(probability, df):
    """The `probability` quantile of Student's t (bisection on `student_t_sf`)."""
    low, high = -50.0, 50.0
    for _ in range(200):
        middle = (low + high) / 2
        low, high = (middle, high) if 1 - student_t_sf(middle, df) < probability else (low, middle)
    return (low + high) / 2


def paired_rows(comparison_csv):
    """Each paired hypothesis's rounds, mean log ratio, standard deviation of the per-round
    log ratios and log threshold, recovered exactly from comparison.csv (the paired t
    interval is mean ± t·sd/√n over n rounds, `base_trials`)."""
    found = {}
    for row in csv.DictReader(open(comparison_csv, newline="")):
        if row.get("estimator") != "paired" or row["metric"] == "events_per_sec" or not row.get("ci95_low"):
            continue
        rounds = int(row["base_trials"])
        low, high = math.log(float(row["ci95_low"])), math.log(float(row["ci95_high"]))
        key = (row["workload"], row["scheduler"], row["strategy"], row["producers"], row["metric"])
        spread = (high - low) / 2 / t_quantile(0.975, rounds - 1) * math.sqrt(rounds)
        found[key] = (rounds, (low + high) / 2, spread, math.log(1 + float(row["threshold"])))
    return found


def pooled_pvalues(first, second):
    """Two gates of the same condition as one with all their rounds: the pooled mean and
    standard deviation of the per-round log ratios, and the one-sided p-value of "worse by
    more than the threshold" with n₁ + n₂ − 1 degrees of freedom."""
    found = {}
    for key in first.keys() & second.keys():
        (n1, m1, s1, limit), (n2, m2, s2, _) = first[key], second[key]
        n = n1 + n2
        mean = (n1 * m1 + n2 * m2) / n
        squares = (n1 - 1) * s1 * s1 + (n2 - 1) * s2 * s2 + n1 * (m1 - mean) ** 2 + n2 * (m2 - mean) ** 2
        error = math.sqrt(squares / (n - 1) / n)
        if error == 0:
            found[key] = 0.0 if mean > limit else 1.0
        else:
            found[key] = student_t_sf((mean - limit) / error, n - 1)
    return found


def rules_summary(out):
    """How each decision rule would have decided the same gates (their kept comparisons)."""
    directory = os.path.join(out, "comparisons")
    if not os.path.isdir(directory):
        return []
    groups, paths = {}, {}
    for name in sorted(os.listdir(directory), key=lambda name: (name.rsplit("-", 1)[0], int(name.rsplit("-", 1)[1]))):
        condition, load, _ = name.rsplit("-", 2)
        path = os.path.join(directory, name, "comparison.csv")
        if os.path.exists(path):
            groups.setdefault((condition, load), []).append(hypotheses(path))
            paths.setdefault((condition, load), []).append(path)
    lines = ["", "The same gates under other decision rules (from each gate's comparison.csv; exit 2 of gates):", "",
             "| rule | " + " | ".join(f"{c} ({l})" for c, l in sorted(groups)) + " |",
             "|---|" + "---:|" * len(groups)]
    for rule, fails in RULES.items():
        cells = [f"{sum(fails(h) for h in groups[key])} of {len(groups[key])}" for key in sorted(groups)]
        lines.append(f"| {rule} | " + " | ".join(cells) + " |")
    # Twice the rounds: consecutive gates of a condition pooled in pairs.
    for label, only_time in (("twice the rounds (two gates' rounds pooled), shipped rule", False),
                             ("twice the rounds (two gates' rounds pooled), ns/event only", True)):
        cells = []
        for key in sorted(groups):
            gates = [paired_rows(path) for path in paths[key]]
            pooled = [pooled_pvalues(gates[i], gates[i + 1]) for i in range(0, len(gates) - 1, 2)]
            fails = sum(family_fails(h, selected=is_time if only_time else lambda key: True) for h in pooled)
            cells.append(f"{fails} of {len(pooled)}")
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return lines


def self_test():
    """Checks the statistics the summary uses against values from tables."""
    def close(actual, expected, tolerance, what):
        if abs(actual - expected) > tolerance:
            sys.exit(f"self-test failed: {what}: {actual} where {expected} was expected")
    close(t_quantile(0.975, 9), 2.262157, 1e-5, "t(0.975, 9)")
    close(t_quantile(0.95, 19), 1.729133, 1e-5, "t(0.95, 19)")
    close(student_t_sf(2.0, 9), 0.0382764, 1e-6, "P(T9 > 2)")
    close(student_t_sf(-1.3, 9), 0.8870468, 1e-6, "P(T9 > -1.3)")
    close(student_t_sf(0.0, 5), 0.5, 1e-12, "P(T5 > 0)")
    close(student_t_sf(4.5, 19), 0.000122592, 1e-8, "P(T19 > 4.5)")
    # Two gates with the same mean and spread, pooled: the same mean, twice the rounds.
    gate = {("w", "s", "st", "1", "ns_per_event"): (10, 0.10, 0.06, math.log(1.05))}
    pooled = pooled_pvalues(gate, gate)
    spread = math.sqrt(9 * 2 * 0.06 ** 2 / 19)
    close(pooled[("w", "s", "st", "1", "ns_per_event")], student_t_sf((0.10 - math.log(1.05)) / (spread / math.sqrt(20)), 19), 1e-12,
          "two identical gates pooled")
    # Gates of 10 and 5 rounds pooled: the t test of all 15 per-round log ratios at once.
    def summary_of(ratios):
        mean = sum(ratios) / len(ratios)
        return len(ratios), mean, math.sqrt(sum((r - mean) ** 2 for r in ratios) / (len(ratios) - 1)), math.log(1.05)
    first = [0.02, 0.09, 0.11, 0.05, 0.13, 0.08, 0.10, 0.07, 0.12, 0.06]
    second = [0.15, 0.04, 0.09, 0.11, 0.08]
    everything = summary_of(first + second)
    close(pooled_pvalues({"k": summary_of(first)}, {"k": summary_of(second)})["k"],
          student_t_sf((everything[1] - everything[3]) / (everything[2] / math.sqrt(15)), 14), 1e-12, "gates of 10 and 5 rounds pooled")
    close(holm({"a": 0.01, "b": 0.04, "c": 0.03})["a"], 0.03, 1e-12, "Holm's first step")
    close(holm({"a": 0.01, "b": 0.04, "c": 0.03})["b"], 0.06, 1e-12, "Holm's last step")
    # A counted spin adds at least the share asked, and less than a hundredth of a turn more.
    for count, percent, turn in ((116.0, 3, 4.0), (116.0, 1, 4.0), (727.7, 3, 4.5), (120.0, 3, 3.6), (120.0, 3 + PAST_THRESHOLD, 1.383)):
        added = counted_turns(count, percent, turn) * turn / count * 100
        if not percent < added <= percent + 0.01 * turn / count * 100 + 1e-9:
            sys.exit(f"self-test failed: a counted spin for {percent}% of {count} ({turn} a turn) adds {added}%")
    print("self-test: the summary's statistics match their tables")
    turn_sized_alone()
    print("self-test: a counted spin's turn is sized from two runs of the turn case alone")
    problem = instruction_step_drift(os.path.join(ROOT, ".github", "workflows", "performance.yml"))
    if problem:
        sys.exit(f"self-test failed: {problem}")
    print("self-test: --instructions runs the workflow's instruction step")


def turn_sized_alone():
    """count_calibration() against stand-in runs where the turn case counts 119.5 an event
    among the whole case set, 120.0 alone, and 1.4 more alone for each turn of spin: TURN
    must be 1.4 (not the 1.45 the whole set's count would give), COUNTS the whole set's."""
    global measure, TURN, CAMPAIGN
    def stand_in(target, arguments):
        spin = re.search(r"countSpin=([0-9.]+)", open(target).read())
        count = (120.0 if "--workload" in arguments else 119.5) + (float(spin.group(1)) * 1.4 if spin else 0)
        directory = arguments[arguments.index("--out") + 1]
        os.makedirs(directory, exist_ok=True)
        workload, scheduler, strategy, producers = TURN_CASE.split("/")
        with open(os.path.join(directory, "results.csv"), "w", newline="") as file:
            writer = csv.DictWriter(file, ["workload", "scheduler", "strategy", "producers", "metric", "value"])
            writer.writeheader()
            writer.writerow({"workload": workload, "scheduler": scheduler, "strategy": strategy,
                             "producers": producers[1:], "metric": "instructions_per_event", "value": count})
    real, saved = measure, (dict(COUNTS), TURN, CAMPAIGN)
    out = tempfile.mkdtemp(prefix="validate-self-test-")
    measure, CAMPAIGN = stand_in, INSTRUCTIONS
    try:
        COUNTS.clear()
        count_calibration("/bin/true", out)
        if abs(TURN - 1.4) > 1e-9 or COUNTS.get(TURN_CASE) != 119.5:
            sys.exit(f"self-test failed: the turn sized {TURN} (1.4 expected) and the count {COUNTS.get(TURN_CASE)} (119.5 expected)")
    finally:
        measure = real
        COUNTS.clear()
        COUNTS.update(saved[0])
        TURN, CAMPAIGN = saved[1], saved[2]
        shutil.rmtree(out, ignore_errors=True)


def instruction_step_drift(workflow):
    """Why INSTRUCTIONS no longer runs the pull-request workflow's instruction step (its
    rounds, its options and the cases it names, which --instructions narrows to the
    trampoline's with `--scheduler`), or None when it still does."""
    text = open(workflow).read()
    start = text.find("--metric instructions_per_event")
    if start < 0:
        return f"{workflow} has no step gating instructions_per_event"
    step = text[text.rfind("schedbench gate", 0, start):text.find(">>", start)]
    tokens = step.replace("\\\n", " ").split()
    pairs = set(zip(tokens, tokens[1:]))
    if ("--rounds", str(INSTRUCTIONS.rounds)) not in pairs:
        return f"the workflow's instruction step does not run --rounds {INSTRUCTIONS.rounds}"
    options = INSTRUCTIONS.gate_options + INSTRUCTIONS.decision + INSTRUCTIONS.cases
    for option, value in zip(options, options[1:]):
        if option.startswith("--") and not value.startswith("--") and option != "--scheduler" and (option, value) not in pairs:
            return f"the workflow's instruction step does not pass {option} {value}"
    if "--instructions" not in tokens:
        return "the workflow's instruction step does not count instructions (--instructions)"
    return None


def not_a_validation_build(binary):
    """Why `binary` cannot be slowed on request, or None: it must be an executable built
    with the ValidationSlowdown trait, whose spin (the symbol scripts/test.sh checks a build
    without the trait for) is in it."""
    if not os.path.isfile(binary) or not os.access(binary, os.X_OK):
        return "not an executable file"
    symbols = subprocess.run(["nm", binary], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, errors="replace").stdout
    if "18ValidationSlowdownO4spin" not in symbols:
        return ("not a schedbench-builtins built with the ValidationSlowdown trait "
                "(swift build -c release --traits ValidationSlowdown --product schedbench-builtins)")
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--conditions", default="aa,one10,all3", help="comma-separated: aa, oneP, allP (such as one10, all3)")
    parser.add_argument("--gates", type=int, default=30, help="gates (and history runs) per condition to run now; started again on the same --out, a campaign runs this many more, numbered after those it kept")
    parser.add_argument("--rounds", type=int, help="rounds a gate (default: 10, or 2 with --instructions, as CI runs them)")
    parser.add_argument("--load", type=int, default=0, help="busy loops beside the runs")
    parser.add_argument("--trials-per-round", default="",
                        help="the gate's --trials-per-round, or several comma-separated to interleave (default: the gate's default)")
    parser.add_argument("--history", action="store_true", help="validate compare --history instead of gate")
    parser.add_argument("--instructions", action="store_true",
                        help="validate the gate on instruction counts as CI runs it (INSTRUCTIONS below) instead of the gate on time")
    parser.add_argument("--history-runs", type=int, default=20)
    parser.add_argument("--slide", action="store_true",
                        help="with --history, add each run of the unchanged build after judging it, as CI adds main's runs")
    parser.add_argument("--calibrate", action="store_true",
                        help="slow the oneP conditions by a fixed spin, its turns found first by two gates of the full case set")
    parser.add_argument("--spin", type=int, metavar="TURNS",
                        help="slow the oneP conditions by this fixed spin (the turns an earlier --calibrate found)")
    parser.add_argument("--target", help="a schedbench-builtins built with the ValidationSlowdown trait, the schedbench tool beside it (default: build both)")
    parser.add_argument("--out", default=os.path.join(ROOT, "results", "validation"))
    parser.add_argument("--summary", metavar="OUT", help="print the tables of OUT and exit")
    parser.add_argument("--self-test", action="store_true", help="check the summary's statistics, and that --instructions runs the workflow's instruction step, and exit")
    options = parser.parse_args()
    if options.self_test:
        return self_test()
    if options.summary:
        return summary(options.summary)
    conditions = options.conditions.split(",")
    def known(condition):
        try:
            parse_condition(condition)
            return True
        except KeyError:
            return False
    unknown = [c for c in conditions if not known(c)]
    if unknown:
        parser.error(f"unknown condition {', '.join(unknown)}: expected aa, oneP or allP (P a whole percentage, such as one10 or all3)")
    for name, value, least in (("--gates", options.gates, 1), ("--history-runs", options.history_runs, 1), ("--load", options.load, 0)):
        if value < least:
            parser.error(f"{name} {value}: expected a whole number, {least} or more")
    if options.spin is not None and options.spin < 0:
        parser.error(f"--spin {options.spin}: expected a whole number of turns, 0 or more")
    if options.instructions and (options.history or options.trials_per_round):
        parser.error("--instructions validates the instruction gate as CI runs it: without --history or --trials-per-round")
    if options.instructions and (options.calibrate or options.spin is not None):
        parser.error("--instructions sizes its slowdowns from instruction counts: without --calibrate or --spin")
    global CAMPAIGN
    CAMPAIGN = INSTRUCTIONS if options.instructions else TIME
    rounds = options.rounds or CAMPAIGN.rounds
    if rounds < 2:
        parser.error(f"--rounds {rounds}: a gate needs 2 rounds or more")
    os.makedirs(options.out, exist_ok=True)
    binary = os.path.abspath(options.target) if options.target else build()
    problem = not_a_validation_build(binary)
    if problem:
        parser.error(f"--target {options.target}: {problem}")
    global TOOL
    TOOL = os.path.join(os.path.dirname(binary), "schedbench")
    if not os.access(TOOL, os.X_OK):
        parser.error(f"--target {options.target}: no schedbench tool beside it ({TOOL})")
    slowed_percents = sorted({int(c[3:]) for c in conditions if c.startswith("one")})
    if options.instructions and any(parse_condition(c)[0] != "aa" for c in conditions):
        count_calibration(binary, options.out)
    if options.spin is not None:
        SPIN.update({percent: options.spin for percent in slowed_percents})
    elif options.calibrate:
        SPIN.update({percent: calibrate(binary, percent, rounds, options.out) for percent in slowed_percents})
    if options.history:
        run_history(binary, options.history_runs, options.gates, options.load, options.out, options.slide)
    else:
        trials = [int(value) for value in options.trials_per_round.split(",")] if options.trials_per_round else [None]
        run_gates(binary, conditions, options.gates, rounds, options.load, options.out, trials)
        if len(trials) > 1:
            for value in trials:
                print(f"\ntrials per round {value}:")
                summary(os.path.join(options.out, f"k{value}"))
            return
    summary(options.out)


if __name__ == "__main__":
    main()
