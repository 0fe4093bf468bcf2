#!/usr/bin/env bash
# Runs every test: the full suite in a debug build, then the whole suite again under
# ThreadSanitizer (it must report nothing).
#   scripts/test.sh            everything
#   SKIP_TSAN=1 scripts/test.sh  without the ThreadSanitizer pass
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
# The harness links jemalloc (allocation statistics) and counts instructions with valgrind.
ensure_debian_packages libjemalloc-dev pkg-config valgrind

echo "== swift test"
swift test

if [ "${SKIP_TSAN:-0}" != "1" ]; then
    echo "== swift test --sanitize=thread"
    # TSAN_OPTIONS makes any report fail the run, not just print.
    TSAN_OPTIONS="halt_on_error=1 ${TSAN_OPTIONS:-}" swift test --sanitize=thread --scratch-path .build-tsan
fi
