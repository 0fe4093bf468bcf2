#!/usr/bin/env bash
# Builds schedbench (the tool) and schedbench-builtins (what it measures with) in release
# mode and runs a suite into results/<run-id>/ (results.csv, summary.csv, violations.csv,
# latency/, and the HTML report in report/index.html), printing the summary table.
#   scripts/bench.sh                         the default suite (about 15 minutes here)
#   scripts/bench.sh --suite quick           the CI suite (about 50 s here)
#   scripts/bench.sh --workload observeOn.latency --scheduler serial,main
# Any `schedbench run` option may follow; see `schedbench run --help`.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
ensure_debian_packages libjemalloc-dev libsqlite3-dev pkg-config

# Say what is built before building: a first build takes several minutes and prints
# nothing meanwhile when its output goes to a file.
for product in schedbench-builtins schedbench; do
    echo "bench: building $product in release (a first build takes several minutes on two cores)" >&2
    swift build -c release --product "$product"
done
exec .build/release/schedbench run --report "$@"
