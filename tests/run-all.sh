#!/bin/sh
# Run every test: the normal (profile-guided) build, a build under ASan+UBSan, and a clang
# build that runs each libFuzzer target on a fixed seed and input count
# (tests/fuzz/run_fuzz.sh; FUZZ_SECONDS=N makes it a random N-second soak).
# Build directories are reused when they exist.  The last line is the
# total, as "N passed, N failed".
set -eu
cd "$(dirname "$0")/.."
top=$(pwd)
export ASAN_OPTIONS="${ASAN_OPTIONS:-halt_on_error=1:abort_on_error=1:detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:abort_on_error=1:print_stacktrace=1}"
gnu="$top/build/tests/gnu-vax"

configure() {
    dir=$1
    shift
    if [ ! -f "$dir/build.ninja" ]; then
        meson setup "$dir" "$@"
    fi
}

status=0
run() {
    dir=$1
    shift
    echo "=== meson test -C $dir $*"
    meson test -C "$dir" --print-errorlogs "$@" || status=1
    python3 "$top/tests/tally.py" "$dir/meson-logs/testlog.json" >>"$tallies"
}

tallies=$(mktemp)
trap 'rm -f "$tallies"' EXIT

# the build README.md's quick start makes: profile-guided (issue 8)
if [ ! -f build/build.ninja ]; then
    tests/bench/pgo-build.sh build
fi
meson compile -C build
run build

configure build-san -Db_sanitize=address,undefined -Db_lundef=false \
    -Dgnu_vax_dir="$gnu"
meson compile -C build-san
# The sanitizers watch the same microcode flows on fewer random programs:
# each difftest group runs at most DIFFTEST_SAN_PROGRAMS (default 40)
# programs here, where the normal build runs the full counts (1,000 and
# 300).  The trace cache's lock-step suite runs in the normal build only:
# under the sanitizers it took a fifth of CI's time, and every other test
# here runs with the trace cache on.
export DIFFTEST_MAX_PROGRAMS="${DIFFTEST_SAN_PROGRAMS:-40}"
run build-san --no-suite tcache
unset DIFFTEST_MAX_PROGRAMS

CC=clang configure build-fuzz -Dfuzz=true -Db_lundef=false -Dgnu_vax_dir="$gnu"
meson compile -C build-fuzz
run build-fuzz --suite fuzz

awk '{p += $1; f += $2} END {printf "run-all: %d passed, %d failed\n", p, f}' "$tallies"
# A skipped test (exit 77) is a failure here even where meson says SKIP.
if awk '{f += $2} END {exit !(f > 0)}' "$tallies"; then
    status=1
fi
exit $status
