#!/bin/sh
# run_fuzz.sh FUZZER SEEDS WORKDIR: run a libFuzzer target for a bounded
# time (FUZZ_SECONDS seconds, default 20) on the committed seed corpus
# SEEDS; new inputs are written to WORKDIR, never to SEEDS.
# Extra libFuzzer flags may be given in VAX_FUZZ_ARGS.
set -eu
exe=$1 seeds=$2 work=$3
mkdir -p "$work"
# -error_exitcode=1: libFuzzer's default, 77, would read as "skipped" to meson.
# shellcheck disable=SC2086
exec "$exe" -max_total_time="${FUZZ_SECONDS:-20}" -timeout=10 \
    -error_exitcode=1 -artifact_prefix="$work/" \
    -rss_limit_mb=2048 -print_final_stats=1 ${VAX_FUZZ_ARGS:-} "$work" "$seeds"
