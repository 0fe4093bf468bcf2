#!/usr/bin/env bash
# Runs every test: the full suite in a debug build, the core's tests again in a release
# build without any trait (the configuration users ship: no stress points;
# the hot paths inlined into callers), the publish-order check of that build
# (scripts/check-publish-order.py), the instruction-count gate of the core's hot paths
# (scripts/instruction-gate.py, callgrind), a short stress pass (schedbench stress, 45 s, a
# fresh seed) on a release build with the stress hooks, the seeded-bug catalogue (each bug
# planted in a copy of the tree and caught by its scenario: scripts/seeded-bugs.py), the whole suite under
# ThreadSanitizer (it must report nothing), the example package of a user's scheduler
# (built in release through the command plugin, measured, and stress-tested: its correct
# scheduler passes, its broken one fails; then packed by scripts/bundle.sh and run without
# the toolchain), the public-API check, and the DocC catalogs (no
# warnings allowed). The debug and ThreadSanitizer builds have the StressHooks trait (the
# core's stress points, which the stress tests need). The debug pass also
# has the PostgreSQL trait and runs the history tests against a PostgreSQL server it
# starts on loopback (scripts/test-postgres.sh); the other passes leave PostgreSQL out (it
# adds postgres-nio, SwiftNIO and BoringSSL to the tool's build).
#   scripts/test.sh                 everything
#   SKIP_RELEASE=1 scripts/test.sh  without the release pass
#   SKIP_TSAN=1 scripts/test.sh     without the ThreadSanitizer pass
#   SKIP_DOCS=1 scripts/test.sh     without the documentation build
#   SKIP_EXAMPLE=1 scripts/test.sh  without the example package (Examples/CustomScheduler)
set -euo pipefail
cd "$(dirname "$0")/.."
# Each step's header says when it began (minutes:seconds since the start); when the script
# ends, passed or failed, it prints how long each step took, so a CI log's tail shows
# where the time went.
steps=()
step() {
    steps+=("$SECONDS $1")
    printf '== [%d:%02d] %s\n' $((SECONDS / 60)) $((SECONDS % 60)) "$1"
}
step_times() {
    local i begin end
    echo "== time per step (minutes:seconds; $((SECONDS / 60)):$(printf '%02d' $((SECONDS % 60))) in all)"
    for i in "${!steps[@]}"; do
        begin=${steps[$i]%% *}
        end=$SECONDS
        [ "$((i + 1))" -lt "${#steps[@]}" ] && end=${steps[$((i + 1))]%% *}
        printf '%4d:%02d  %s\n' $(((end - begin) / 60)) $(((end - begin) % 60)) "${steps[$i]#* }"
    done
}
trap step_times EXIT
step "Debian packages and the toolchain"
source scripts/env.sh
source scripts/test-postgres.sh
# The harness links jemalloc (allocation statistics) and SQLite (the history, through GRDB),
# and counts instructions with valgrind.
ensure_debian_packages libjemalloc-dev libsqlite3-dev pkg-config valgrind
# The publish-order check stops the release build's producers at their publish in gdb.
ensure_debian_packages gdb
# Headless Chromium renders a report in ReportCommandTests; without it that test skips.
if [ "$(id -u)" -eq 0 ] && ! command -v chromium >/dev/null 2>&1; then
    (ensure_debian_packages chromium) || echo "note: could not install chromium; the report's browser test will skip" >&2
fi

step "swift test (with a PostgreSQL server for the history tests)"
start_test_postgres
# Its servers are stopped when the script ends, before the step times are printed.
trap 'stop_test_postgres; step_times' EXIT
swift test --traits StressHooks,PostgreSQL,ValidationSlowdown

if [ "${SKIP_RELEASE:-0}" != "1" ]; then
    step "swift test -c release, no traits (the tests of RxSchedulers, RxSchedulersCocoa, RxSchedulersRelay, RxSchedulersBlocking)"
    # SCHEDBENCH_CORE_ONLY=1: the manifest declares the core alone (Package.swift), so the
    # harness and the tool are not built in release for tests that do not use them.
    # -enable-testing: some core tests import the module with @testable (internal functions
    # stay visible to them; the code under test is still optimized, inlined and specialized).
    # A package with no dependency removes Package.resolved: the pins are kept and put back.
    pins="$(mktemp)"
    cp Package.resolved "$pins"
    SCHEDBENCH_CORE_ONLY=1 swift test -c release -Xswiftc -enable-testing --disable-default-traits --scratch-path .build-release-tests
    mv "$pins" Package.resolved
    step "publish order of the shipped build (release, no traits: every retain before the publish, in gdb)"
    scripts/check-publish-order.py
    step "instructions per event of the core's hot paths (callgrind; Benchmarks/InstructionThresholds.json)"
    scripts/instruction-gate.py
    step "the instruction gate fails a seeded 20% slowdown of one path (a copy of HEAD with a slower map)"
    scripts/instruction-gate.py --self-test
    # The seeded-bug catalogue lives outside the core: a copy of the tree with every bug of
    # scripts/seeded-bugs.txt planted behind a run-time switch, its measuring executable
    # (schedbench-builtins) built in release with the stress hooks. With no bug switched on
    # it is the stress build. The debug pass's tool drives it (SCHEDBENCH_TARGET).
    step "the seeded copy of the tree (scripts/seeded-bugs.py: its planting rules, then the build)"
    scripts/seeded-bugs.py --self-test
    seeded="$(scripts/seeded-bugs.py build)"
    tool=.build/debug/schedbench
    # No workload closure may pay a run-time executor check the scheduler under test does not.
    scripts/check-isolation-checks.sh "$seeded"
    # The validation slowdown (ValidationSlowdown trait) must leave no code in a build without it.
    if nm "$seeded" | grep -q '18ValidationSlowdownO4spin'; then
        echo "error: a build without the ValidationSlowdown trait contains its spin" >&2
        exit 1
    fi
    step "schedbench stress (release with the stress hooks, no bug switched on, 45 s; a failure prints its seed and replay command)"
    stress_out="$(mktemp -d)"
    SCHEDBENCH_TARGET="$seeded" "$tool" stress --duration 45 --out "$stress_out/stress" --quiet
    rm -rf "$stress_out"
    # Each bug against the scenario meant to catch it (the release build is where some show:
    # PublishSubject calls its sole observer without a retain, and a debug build copies the
    # closure around the call), a replay line that reproduces, a misspelt bug refused.
    step "every seeded bug caught by its scenario (scripts/seeded-bugs.py check: seed 1, at most 30 s each)"
    scripts/seeded-bugs.py check --target "$seeded" --tool "$tool"
fi

if [ "${SKIP_TSAN:-0}" != "1" ]; then
    step "swift test --sanitize=thread"
    # TSAN_OPTIONS makes any report fail the run, not just print; the suppressions file
    # waives one report of the Swift runtime that is not a race (it says which, and why).
    # The stress scenarios run here too, briefly (StressRunnerTests), with their perturbation.
    tsan_log="$(mktemp)"
    status=0
    TSAN_OPTIONS="halt_on_error=1 suppressions=$PWD/scripts/tsan-suppressions.txt ${TSAN_OPTIONS:-}" \
        swift test --sanitize=thread --traits StressHooks --scratch-path .build-tsan 2>&1 | tee "$tsan_log" || status=$?
    if [ "$status" != "0" ]; then
        # A report is printed where the failing test was, among hundreds of lines: repeat
        # its accesses and its summary at the end, where a CI log's tail shows them.
        echo "error: the ThreadSanitizer pass failed (exit $status); its reports' accesses:" >&2
        grep -E -A4 "^WARNING: ThreadSanitizer|^  ([Pp]revious )?([Rr]ead|[Ww]rite|[Mm]odifying|[Aa]tomic)|^SUMMARY: ThreadSanitizer" "$tsan_log" | head -80 >&2 || true
        rm -f "$tsan_log"
        exit "$status"
    fi
    rm -f "$tsan_log"
fi

if [ "${SKIP_EXAMPLE:-0}" != "1" ]; then
    step "Examples/CustomScheduler: a user's package on SchedulerBenchCommand, built in release and run through the plugin"
    # Its good scheduler is measured (its rows must be in results.csv) and passes the
    # contract stress; its broken one (claims .serial, runs on two threads) must fail it with 3.
    example_out="$(mktemp -d)"
    example() { (cd Examples/CustomScheduler && swift package --allow-writing-to-package-directory schedbench "$@"); }
    # Into a file first: `grep -q` stops reading at the first match, and under pipefail the
    # writer's SIGPIPE would fail the step.
    example list > "$example_out/list.txt"
    grep -q "^  eventLoop " "$example_out/list.txt" || { echo "error: the example's list does not show its scheduler" >&2; exit 1; }
    example run --workload observeOn.throughput --scheduler eventLoop --strategy reference,drain --producers 1,4 \
        --events 20000 --trials 3 --out "$example_out/run" --no-table --quiet
    for strategy in reference drain; do
        grep -q ",observeOn.throughput,eventLoop,$strategy," "$example_out/run/results.csv" \
            || { echo "error: no eventLoop/$strategy rows in the example's results.csv" >&2; exit 1; }
    done
    example stress --scheduler eventLoop --duration 10 --out "$example_out/good" --quiet
    # Run directly, the executable hands its command line to the tool beside it, and
    # builds the tool there first when it is missing (as after a plain `swift build`).
    rm -f Examples/CustomScheduler/.build/release/schedbench
    Examples/CustomScheduler/.build/release/EventLoopBench list > "$example_out/direct.txt" 2> "$example_out/direct.err"
    grep -q "^  eventLoop " "$example_out/direct.txt" || { echo "error: the example's executable run directly does not list its scheduler" >&2; cat "$example_out/direct.err" >&2; exit 1; }
    grep -q "building the schedbench tool" "$example_out/direct.err" || { echo "error: the example's executable did not say it builds the tool" >&2; exit 1; }
    # `swift package` exits 1 whatever the plugin's executable exited with (it prints the
    # code), so the broken scheduler's exit status is read from the executable itself.
    set +e
    Examples/CustomScheduler/.build/release/EventLoopBench stress --scheduler twoLoops --duration 10 --out "$example_out/broken" --quiet
    status=$?
    set -e
    [ "$status" -eq 3 ] || { echo "error: the broken scheduler's stress exited $status, not 3" >&2; exit 1; }
    # The portable bundle of the example's executable and the tool (built above: only the
    # copy costs), run from a fresh directory without the toolchain (scripts/bundle.sh).
    step "scripts/bundle.sh: the example's executable and the tool, run without the toolchain"
    bundle="$(scripts/bundle.sh --package-path Examples/CustomScheduler --product EventLoopBench --without-builtins --out "$example_out/dist")"
    scripts/bundle.sh --check "$bundle"
    rm -rf "$example_out"
fi

step "public API of the engine's modules (documented, and used or declared user API)"
scripts/check-public-api.py --self-test
scripts/check-public-api.py
step "the generated operators (combineLatest, zip of 2 to 8 sources) match scripts/generate-arity.py"
scripts/generate-arity.py --check
step "scripts/validate-gate.py: its summary's statistics, and --instructions against the workflow's instruction step"
scripts/validate-gate.py --self-test

if [ "${SKIP_DOCS:-0}" != "1" ]; then
    step "documentation (DocC; a warning, such as a link to a missing symbol, fails)"
    # One plugin call for every target: the plugin starts once, and the dependencies the
    # targets share are compiled once for their symbol graphs (346 files against 1,125 with
    # a call a target; 1:45 against 3:04, measured here). DocC prints its diagnostics on
    # stdout, among its progress lines: on a failure they are repeated at the end.
    docc_log="$(mktemp)"
    docc_targets=()
    for target in RxSchedulers RxSchedulersTesting RxSchedulersCocoa RxSchedulersRelay RxSchedulersBlocking SchedulerBench SchedulerBenchPeers; do
        docc_targets+=(--target "$target")
    done
    if ! swift package --disable-sandbox generate-documentation "${docc_targets[@]}" --warnings-as-errors > "$docc_log"; then
        echo "error: DocC failed; its diagnostics:" >&2
        grep -E -A3 "^(error|warning):" "$docc_log" | head -60 >&2 || true
        rm -f "$docc_log"
        exit 1
    fi
    rm -f "$docc_log"
fi
