#!/bin/bash
# A real VAX program through the toolchain: DEC's EVKAA diagnostic image
# (../shared/diag/evkaa.exe, code and data mixed) disassembled by vdis and
# reassembled by vasm must give back the file byte for byte.  The file is
# required: a missing one fails the test.
#   evkaa_roundtrip.sh VASM VDIS EVKAA
set -euo pipefail
vasm=$1 vdis=$2 evkaa=$3
if [ ! -f "$evkaa" ]; then
    echo "FAIL: $evkaa is missing (it lives in the shared folder beside the checkout)"
    exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$vdis" --raw --base 0 --no-addr --pcrel-disp "$evkaa" >"$work/evkaa.s"
"$vasm" --raw --base 0 -o "$work/evkaa.bin" "$work/evkaa.s"
if ! cmp "$evkaa" "$work/evkaa.bin"; then
    echo "FAIL: evkaa.exe -> vdis -> vasm is not the same file"
    exit 1
fi
insns=$(grep -vc '^\s*\.\(byte\|word\)' "$work/evkaa.s")
echo "evkaa: $(stat -c %s "$evkaa") bytes identical after vdis -> vasm ($insns instruction lines)"
