#!/usr/bin/env bash
# Opens a schedbench report in headless Chromium and saves a screenshot, then checks that
# the screenshot is not blank (it must hold more than a few colours: charts, text).
#   scripts/report-screenshot.sh results/<run>/report/index.html report.png [width] [height]
# Needs Debian's `chromium` (installed with apt when run as root) and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
if [ $# -lt 2 ]; then
    echo "usage: scripts/report-screenshot.sh REPORT.html OUT.png [width=1280] [height=2000]" >&2
    exit 64
fi
report="$1"
out="$2"
width="${3:-1280}"
height="${4:-2000}"
[ -f "$report" ] || { echo "error: $report: no such report (schedbench report RUN writes RUN/report/index.html)" >&2; exit 1; }
if ! command -v chromium >/dev/null 2>&1; then ensure_debian_packages chromium; fi
profile="$(mktemp -d)"
trap 'rm -rf "$profile"' EXIT
# --no-sandbox: Chromium refuses to run as root with its sandbox; the page is our own file.
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$profile" \
    --window-size="$width,$height" --screenshot="$out" "file://$(realpath "$report")" >/dev/null 2>&1
[ -s "$out" ] || { echo "error: chromium wrote no screenshot to $out" >&2; exit 1; }
python3 - "$out" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
offset, idat, width, height, kind = 8, b"", 0, 0, 0
while offset < len(data):
    length, chunk = struct.unpack(">I4s", data[offset:offset + 8])
    body = data[offset + 8:offset + 8 + length]
    if chunk == b"IHDR":
        width, height, depth, kind = struct.unpack(">IIBB", body[:10])
    elif chunk == b"IDAT":
        idat += body
    offset += 12 + length
raw = zlib.decompress(idat)
channels = {2: 3, 6: 4}.get(kind, 3)
stride = width * channels + 1
colours = set()
for row in range(0, height, 7):
    line = raw[row * stride + 1:(row + 1) * stride]  # filtered bytes: enough to tell blank from not
    colours.update(line[i:i + channels] for i in range(0, len(line), channels * 5))
if len(colours) < 50:
    sys.exit(f"error: {sys.argv[1]} looks blank ({len(colours)} distinct pixel values sampled)")
print(f"{sys.argv[1]}: {width}x{height}, {len(colours)} distinct pixel values sampled: not blank")
PY
