#!/bin/sh
# run_fuzz.sh FUZZER SEEDS WORKDIR RUNS: run a libFuzzer target on the
# committed seed corpus SEEDS; new inputs are written to WORKDIR, never to
# SEEDS.
#
# By default the run is reproducible: seed FUZZ_SEED (default 1) and RUNS
# inputs (chosen per target in meson.build for about 20 s each; FUZZ_RUNS
# overrides), starting from an empty WORKDIR.  The same binary then tries
# the same inputs on every run, so CI cannot turn red by chance and a
# failure repeats.
# FUZZ_SECONDS=N instead makes a soak: a random seed, N seconds, and
# WORKDIR kept between runs, to look for new bugs.
# Extra libFuzzer flags may be given in VAX_FUZZ_ARGS.
set -eu
exe=$1 seeds=$2 work=$3 runs=$4
norandom=
if [ -n "${FUZZ_SECONDS:-}" ]; then
    mode="-max_total_time=$FUZZ_SECONDS"
else
    rm -rf "$work"
    mode="-seed=${FUZZ_SEED:-1} -runs=${FUZZ_RUNS:-$runs} -reload=0"
    # The seed alone is not enough: comparisons of heap addresses feed the
    # mutator, so address-space randomisation changes the inputs tried.
    if setarch "$(uname -m)" -R true 2>/dev/null; then
        norandom="setarch $(uname -m) -R"
    else
        echo "run_fuzz.sh: setarch -R is refused here; this run is not reproducible" >&2
    fi
fi
mkdir -p "$work"
# -error_exitcode=1: libFuzzer's default, 77, would read as "skipped" to meson.
# shellcheck disable=SC2086
exec $norandom "$exe" $mode -timeout=10 \
    -error_exitcode=1 -artifact_prefix="$work/" \
    -rss_limit_mb=2048 -print_final_stats=1 ${VAX_FUZZ_ARGS:-} "$work" "$seeds"
