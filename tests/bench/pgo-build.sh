#!/bin/bash
# Builds the tree with GCC profile-guided optimisation into DIR (default
# build-pgo): an instrumented build runs a training set -- the ALU, memory
# copy and CALLS/RET loops of bench_vs_simh.py, 5 M microcycles of EVKAA
# (if ../shared/diag/evkaa.exe is there) and one second of the bundled
# guest with tracing on -- then everything is rebuilt with the profile.  The machine's behaviour is the same (cycle counts, traces);
# only the host code layout and inlining change.
# usage: tests/bench/pgo-build.sh [DIR [MESON-SETUP-OPTIONS...]]
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
dir=$(realpath -m "${1:-$src/build-pgo}")
shift || true
if [ -d "$dir" ]; then
    meson configure "$dir" -Db_pgo=generate -Dc_args=-Wno-missing-profile "$@"
else
    meson setup "$dir" "$src" -Db_pgo=generate -Dc_args=-Wno-missing-profile "$@"
fi
find "$dir" -name '*.gcda' -delete
meson compile -C "$dir"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# the benchmark's own loops, shorter
python3 "$src/tests/bench/bench_vs_simh.py" --write-programs "$work"
for p in alu memcopy calls-ret; do
    "$dir/cli/vasm" --raw --base 0x1000 -o "$work/$p.bin" "$work/$p.s"
    "$dir/cli/spamctl" run --raw "$work/$p.bin" --load-at 0x1000 --set r14=8000 \
        --max-cycles unlimited --console-in '' --dump-state "$work/$p.json" >/dev/null
done
# DEC's EVKAA (when ../shared has it): every instruction group, 5 M microcycles
evkaa="$src/../shared/diag/evkaa.exe"
if [ -f "$evkaa" ]; then
    "$dir/cli/spamctl" run --raw "$evkaa" --load-at 0 --start 0x200 --console-in '\r' \
        --console-out /dev/null --max-cycles 5000000 >/dev/null
fi
"$dir/cli/spamctl" run --raw "$dir/vax/guest/kernel.bin" --load-at 0 --start 0 \
    --memory 8 --console-in '' --console-out /dev/null --net-rate 200 --seed 1 \
    --max-cycles 12500000 -o "$work/guest.spam" >/dev/null
# -Wno-coverage-mismatch: a later edit and `meson compile` rebuild the
# changed functions without their (stale) profile instead of failing;
# run this script again to refresh it
meson configure "$dir" -Db_pgo=use \
    "-Dc_args=-Wno-missing-profile -Wno-coverage-mismatch"
meson compile -C "$dir"
echo "pgo-build: profile-optimised build in $dir"
