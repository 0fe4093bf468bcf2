#!/usr/bin/env bash
# Runs every test: the full suite in a debug build, the core's tests again in a release
# build (its hot paths are inlined into callers there), the whole suite under
# ThreadSanitizer (it must report nothing), and the DocC catalogs (no warnings allowed).
#   scripts/test.sh                 everything
#   SKIP_RELEASE=1 scripts/test.sh  without the release pass
#   SKIP_TSAN=1 scripts/test.sh     without the ThreadSanitizer pass
#   SKIP_DOCS=1 scripts/test.sh     without the documentation build
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
# The harness links jemalloc (allocation statistics) and counts instructions with valgrind.
ensure_debian_packages libjemalloc-dev pkg-config valgrind

echo "== swift test"
swift test

if [ "${SKIP_RELEASE:-0}" != "1" ]; then
    echo "== swift test -c release (RxSchedulersTests)"
    # -enable-testing: some core tests import the module with @testable.
    swift test -c release -Xswiftc -enable-testing --scratch-path .build-release-tests --filter RxSchedulersTests
fi

if [ "${SKIP_TSAN:-0}" != "1" ]; then
    echo "== swift test --sanitize=thread"
    # TSAN_OPTIONS makes any report fail the run, not just print.
    TSAN_OPTIONS="halt_on_error=1 ${TSAN_OPTIONS:-}" swift test --sanitize=thread --scratch-path .build-tsan
fi

if [ "${SKIP_DOCS:-0}" != "1" ]; then
    echo "== documentation (DocC; a warning, such as a link to a missing symbol, fails)"
    for target in RxSchedulers RxSchedulersTesting SchedulerBench; do
        swift package --disable-sandbox generate-documentation --target "$target" --warnings-as-errors >/dev/null
    done
fi
