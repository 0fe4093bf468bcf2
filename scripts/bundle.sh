#!/usr/bin/env bash
# Builds a portable bundle: the schedbench tool and the built-ins' measuring executable
# (and, with --package-path, a package's own SchedulerBench executables), in release,
# stripped, packed with every shared library they load (the Swift runtime and Foundation,
# jemalloc, SQLite, the C and C++ runtimes, glibc) and the dynamic loader, into one .tar.gz
# that runs without Swift on any Linux of the same architecture, from any directory:
#
#   tar -xzf schedbench-linux-x86_64.tar.gz && cd schedbench-linux-x86_64
#   ./schedbench run --suite scaling --out results/scaling
#
# Each program in the bundle is a small sh launcher that runs the real binary (libexec/)
# through the bundled loader with the bundled libraries first, so the host's glibc,
# libstdc++, jemalloc or Swift never mix in; it sets SCHEDBENCH_SELF to itself, so child
# processes (isolated cases, counting trials, stress scenarios, gate rounds) start the
# same way. A package's executable hands its command line to the bundled tool.
#
#   scripts/bundle.sh                                  the tool and the built-ins → dist/
#   scripts/bundle.sh --package-path Examples/CustomScheduler --product EventLoopBench
#                                                      also a package's executable (the tool
#                                                      then comes from that package's build)
#   scripts/bundle.sh --package-path P --product X --without-builtins
#                                                      the tool and the package's executable only
#   scripts/bundle.sh --out /tmp/bundles --no-strip    elsewhere; keep the symbols
#   scripts/bundle.sh --check dist/schedbench-linux-x86_64.tar.gz
#                                                      unpack into a fresh directory and run, with
#                                                      each measuring executable, `list`, a short
#                                                      isolated run and two stress scenarios
#                                                      where the toolchain and the host's copies
#                                                      of the bundled libraries are hidden (a
#                                                      mount namespace, as root); where no
#                                                      namespace can be made, the same runs must
#                                                      load no library from outside the bundle
#                                                      (LD_DEBUG)
#
# The builds are plain release builds in each package's .build (what scripts/bench.sh and
# the plugin build), so a bundle of what is built already costs only the copy.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

out=dist
strip_symbols=1
package_path=""
products=()
builtins=1
check=""
while [ $# -gt 0 ]; do
    case "$1" in
        --out) out="$2"; shift 2 ;;
        --no-strip) strip_symbols=0; shift ;;
        --package-path) package_path="$2"; shift 2 ;;
        --product) products+=("$2"); shift 2 ;;
        --without-builtins) builtins=0; shift ;;
        --check) check="$2"; shift 2 ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "error: unknown option '$1' (see scripts/bundle.sh --help)" >&2; exit 64 ;;
    esac
done

arch="$(uname -m)"
name="schedbench-linux-$arch"

# check TARBALL: runs the bundle where the build machine's Swift and libraries cannot help it.
if [ -n "$check" ]; then
    [ -f "$check" ] || { echo "error: --check '$check' is not a file" >&2; exit 64; }
    tarball="$(cd "$(dirname "$check")" && pwd)/$(basename "$check")"
    fresh="$(mktemp -d)"
    trap 'rm -rf "$fresh"' EXIT
    tar -xzf "$tarball" -C "$fresh"
    bundle="$fresh/$name"
    [ -x "$bundle/schedbench" ] || { echo "error: $check holds no $name/schedbench" >&2; exit 1; }
    # The measuring executables: the built-ins through the tool, a package's directly.
    commands=()
    [ -x "$bundle/libexec/schedbench-builtins" ] && commands+=("$bundle/schedbench")
    for program in "$bundle"/libexec/*; do
        program="$(basename "$program")"
        case "$program" in schedbench|schedbench-builtins) ;; *) commands+=("$bundle/$program") ;; esac
    done
    [ ${#commands[@]} -gt 0 ] || { echo "error: $check holds no measuring executable" >&2; exit 1; }
    commit="$(sed -n '1s/^SchedulerBench \([^ ,]*\), built.*/\1/p' "$bundle/README")"
    [ -n "$commit" ] || { echo "error: $check's README does not name the commit it was built from" >&2; exit 1; }
    script="$fresh/inside.sh"
    {
        echo 'set -euo pipefail'
        echo "work=\"\$(mktemp -d)\"; cd \"\$work\""
        for command in "${commands[@]}"; do
            label="$(basename "$command")"
            echo "'$command' list > '$label-list.txt'"
            echo "grep -q '^  observeOn.throughput' '$label-list.txt'"
            echo "'$command' run --workload observeOn.throughput --scheduler serial,none --strategy drain,gcd --producers 1,4 --events 2000 --trials 2 --isolate --out '$label-run' --no-table --quiet"
            echo "test \"\$(grep -c ',observeOn.throughput,serial,drain,' '$label-run/results.csv')\" -gt 0"
            # The run names the commit the bundle was built from, though no git is at hand.
            [ "$commit" = unknown ] || echo "grep -q ',$commit,release,' '$label-run/results.csv' || { echo 'error: the run did not record the bundle'\''s commit $commit' >&2; exit 1; }"
            echo "'$command' stress --scenario mpsc.spec,merge.fanIn --iterations 5 --out '$label-stress' --quiet"
        done
        echo "echo \"bundle ran from \$work: $(for c in "${commands[@]}"; do printf '%s ' "$(basename "$c")"; done)(list, an isolated run, two stress scenarios each)\""
    } > "$script"
    if [ "$(id -u)" -eq 0 ] && unshare --mount --propagation private true 2>/dev/null; then
        # Hide the toolchain, and the host's copy of every library the bundle carries (an
        # empty file bind-mounted over each), so a binary that still reached for them fails.
        hide="$fresh/hide.sh"
        {
            echo 'set -euo pipefail'
            echo 'empty_dir="$(mktemp -d)"; empty_file="$(mktemp)"'
            for directory in /opt/swift /usr/share/swift; do [ -d "$directory" ] && echo "mount --bind \"\$empty_dir\" '$directory'"; done
            for library in "$bundle"/lib/*; do
                base="$(basename "$library")"
                case "$base" in ld-linux*|libc.so*|libm.so*|libpthread.so*|libdl.so*|librt.so*) continue ;; esac  # the shell needs the host's
                for system in /usr/lib/"$arch"-linux-gnu/"$base" /lib/"$arch"-linux-gnu/"$base" /usr/lib/"$base"; do
                    [ -e "$system" ] && echo "mount --bind \"\$empty_file\" '$(readlink -f "$system")'"
                done
            done
            echo 'if command -v swift >/dev/null 2>&1 && swift --version >/dev/null 2>&1; then echo "error: swift still runs inside the namespace" >&2; exit 1; fi'
            echo "bash '$script'"
        } > "$hide"
        unshare --mount --propagation private bash "$hide"
        echo "check: in a mount namespace without the toolchain or the host's copies of the bundled libraries"
    else
        # No namespace here (not root, or a container without the capability): every library
        # the runs load must come from the bundle.
        LD_DEBUG=files LD_DEBUG_OUTPUT="$fresh/ld" bash "$script"
        # One file per process; a process's execs start with its loader's init. What runs
        # under the bundle's loader (a program of the bundle, not a launcher's shell) must
        # load only the bundle's libraries.
        programs=($(grep -l "calling init: $bundle/lib/ld-" "$fresh"/ld.* || true))
        [ ${#programs[@]} -gt 0 ] || { echo "error: LD_DEBUG saw no process of the bundle's programs" >&2; exit 1; }
        outside="$(for log in "${programs[@]}"; do
            awk -v bundle="$bundle/" '/calling init: / {
                path = $NF
                if (path ~ /\/ld-linux[^\/]*$/) inside = (index(path, bundle) == 1)
                else if (inside && index(path, bundle) != 1) print path
            }' "$log"
        done | sort -u)"
        if [ -n "$outside" ]; then
            echo "error: the bundle's programs loaded libraries from outside it:" >&2
            echo "$outside" | sed 's/^/  /' >&2
            exit 1
        fi
        echo "check: every library the bundle's ${#programs[@]} processes loaded came from the bundle (LD_DEBUG; no mount namespace here)"
    fi
    exit 0
fi

ensure_debian_packages libjemalloc-dev libsqlite3-dev pkg-config
staging="$(mktemp -d)"
trap 'rm -rf "$staging"' EXIT
root="$staging/$name"
mkdir -p "$root/libexec" "$root/lib"

build_product() {  # PACKAGE PRODUCT
    local package="$1" product="$2" built
    echo "== building $product in release ($package; a first build takes several minutes)" >&2
    swift build -c release --package-path "$package" --product "$product" >&2
    built="$(swift build -c release --package-path "$package" --show-bin-path)/$product"
    cp "$built" "$root/libexec/$product"
}

if [ -n "$package_path" ]; then
    [ ${#products[@]} -gt 0 ] || { echo "error: --package-path needs --product NAME (the package's SchedulerBench executable)" >&2; exit 64; }
    for product in "${products[@]}"; do build_product "$package_path" "$product"; done
    build_product "$package_path" schedbench
else
    [ ${#products[@]} -eq 0 ] || { echo "error: --product names an executable of the package --package-path names" >&2; exit 64; }
    [ "$builtins" = 1 ] || { echo "error: --without-builtins leaves nothing to measure with without --package-path" >&2; exit 64; }
    build_product . schedbench
fi
[ "$builtins" = 1 ] && build_product . schedbench-builtins

[ "$strip_symbols" = 1 ] && strip "$root"/libexec/*

# Every shared library the binaries load, and the loader, from the build machine.
loader=""
for binary in "$root"/libexec/*; do
    while read -r line; do
        path=""
        case "$line" in
            *"=> not found"*) echo "error: $binary needs a library this machine lacks: $line" >&2; exit 1 ;;
            *"=>"*) path="$(echo "$line" | awk '{print $3}')" ;;
            /*) path="$(echo "$line" | awk '{print $1}')"; loader="$(basename "$path")" ;;
            *) continue ;;
        esac
        [ -n "$path" ] && [ -f "$path" ] && cp -L "$path" "$root/lib/$(basename "$path")"
    done < <(ldd "$binary")
done
[ -n "$loader" ] || { echo "error: found no dynamic loader in ldd's output" >&2; exit 1; }
if [ "$strip_symbols" = 1 ]; then
    for library in "$root"/lib/*; do
        [ "$(basename "$library")" = "$loader" ] || strip --strip-unneeded "$library"
    done
fi

# The commit the programs were built from (the measured package's), as `run` records it
# where it can ask git: a bundle runs where neither the checkout nor git is.
commit="$(git -C "${package_path:-.}" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"
if [ "$commit" != unknown ] && [ -n "$(git -C "${package_path:-.}" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
    commit="$commit-dirty"
fi

for binary in "$root"/libexec/*; do
    program="$(basename "$binary")"
    cat > "$root/$program" <<EOF
#!/bin/sh
# Runs $program with the bundle's own loader and libraries (scripts/bundle.sh).
here="\$(cd "\$(dirname "\$0")" && pwd)"
SCHEDBENCH_SELF="\$here/$program"
SCHEDBENCH_COMMIT="\${SCHEDBENCH_COMMIT:-$commit}"
export SCHEDBENCH_SELF SCHEDBENCH_COMMIT
exec "\$here/lib/$loader" --library-path "\$here/lib" --argv0 "\$0" "\$here/libexec/$program" "\$@"
EOF
    chmod +x "$root/$program"
done

cat > "$root/README" <<EOF
SchedulerBench $commit, built $(date -u +%Y-%m-%d) for $arch Linux.
Runs without Swift: ./schedbench run --suite scaling (see ./schedbench --help).
Programs: $(cd "$root/libexec" && ls | tr '\n' ' ')
Libraries (lib/, with the loader $loader): $(cd "$root/lib" && ls | tr '\n' ' ')
EOF

mkdir -p "$out"
tarball="$out/$name.tar.gz"
tar -czf "$tarball" -C "$staging" "$name"
echo "bundle: $tarball ($(du -h "$tarball" | cut -f1); unpacked $(du -sh "$root" | cut -f1))" >&2
echo "$tarball"
