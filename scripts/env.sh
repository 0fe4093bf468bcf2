# Shared setup for the scripts: puts the Swift toolchain on PATH and installs
# Debian packages on demand. Source it; do not run it.

if ! command -v swift >/dev/null 2>&1; then
    for candidate in /opt/swift/usr/bin /usr/share/swift/usr/bin; do
        if [ -x "$candidate/swift" ]; then
            export PATH="$PATH:$candidate"
            break
        fi
    done
fi
if ! command -v swift >/dev/null 2>&1; then
    echo "error: no 'swift' on PATH; install Swift 6.1 or newer (https://swift.org/install) and retry" >&2
    exit 1
fi

# ensure_debian_packages PACKAGE...: installs the missing ones with apt when root,
# otherwise names the command to run and fails.
ensure_debian_packages() {
    local missing=()
    for package in "$@"; do
        dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "installing ${missing[*]} with apt-get" >&2
        DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    else
        echo "error: missing packages: ${missing[*]}; run: sudo apt-get install -y ${missing[*]}" >&2
        exit 1
    fi
}
