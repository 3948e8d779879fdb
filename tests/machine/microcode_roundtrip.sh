#!/bin/bash
# The control store survives uasm -> image -> --microcode, and the .mic
# sources given as --microcode run the same: identical JSON to the built-in
# control store.
#   microcode_roundtrip.sh UASM SPAMCTL VASM MIC... PROG.s
set -eu
uasm=$1 spamctl=$2 vasm=$3
shift 3
prog=${!#}
mics=("${@:1:$#-1}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$uasm" -o "$work/u.img" "${mics[@]}"
cat "${mics[@]}" >"$work/all.mic"
"$vasm" --raw --base 0x1000 -o "$work/p.bin" "$prog"
run() { "$spamctl" run --raw "$work/p.bin" --load-at 0x1000 --set r14=8000 \
          --dump-mem 0x2000:64 --dump-state - "$@"; }
run >"$work/a.json"
run --microcode "$work/u.img" >"$work/b.json"
run --microcode "$work/all.mic" >"$work/c.json"
cmp "$work/a.json" "$work/b.json"
cmp "$work/a.json" "$work/c.json"
grep -q '"halted": true, "reason": "HALT instruction"' "$work/a.json"
echo ok
