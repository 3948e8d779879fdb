#!/bin/bash
# Regenerates the sample traces into DIR (default: this folder).
# usage: traces/regen.sh SPAMCTL KERNEL.BIN [DIR]
set -euo pipefail
spamctl=$(realpath "$1") kernel=$(realpath "$2") dir=${3:-$(dirname "$0")}
cd "$dir"
run() { "$spamctl" run --raw "$kernel" --load-at 0 --start 0 --memory 8 \
            --console-in '' --console-out /dev/null "$@" >/dev/null; }
"$spamctl" demo --image "$kernel" --duration 3 -o demo.spam >/dev/null
run --net-rate 1000 --net-size 64:1500 --seed 2 --drain-tap -o net1000.spam
run --net-rate 200 --seed 3 --drain-tap --no-rei-trace -o norei.spam
