#!/bin/bash
# Differential tests of the guest toolchain on the every-opcode,
# every-mode source written by gen_allmodes.
#
#   allmodes.sh roundtrip GEN VASM VDIS          vasm -> vdis -> vasm, bytes equal
#   allmodes.sh gas GEN VASM VDIS GNUDIR         vasm and GNU as + ld, bytes equal
#   allmodes.sh simh GEN VASM VDIS               vdis and SIMH's ex -m agree
#
# GEN may also be an assembler source (FILE.s) instead of the generator:
# its instructions (everything before its first .data) are used as they
# are, e.g. tests/asm/corpus/floats.s for many floating literals.
set -euo pipefail
mode=$1 gen=$2 vasm=$3 vdis=$4 gnu=${5:-}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
base=0x1000

# On a byte mismatch, show where, with vdis's reading of both sides.
explain() {
    local a=$1 b=$2
    local off
    off=$(cmp "$a" "$b" | awk '{print $5}' | tr -d ,) || true
    if [ -z "$off" ]; then
        echo "sizes differ: $(stat -c %s "$a") vs $(stat -c %s "$b") bytes"
        return
    fi
    off=$((off - 1))
    echo "first difference at offset $off (address $(printf 0x%x $((base + off))))"
    for f in "$a" "$b"; do
        echo "--- $f around it:"
        "$vdis" --raw --base $base "$f" | awk -v lo=$((base + off - 16)) -v hi=$((base + off + 8)) \
            '{ a = strtonum("0x" $1); if (a >= lo && a <= hi) print }'
    done
}

# the source: the generator's output (--gas: what GNU as assembles too)
source() {
    case $gen in
    *.s) sed '/^[[:space:]]*\.data/,$d' "$gen" ;;
    *) "$gen" "$@" ;;
    esac
}

case $mode in
roundtrip)
    source >"$work/all.s"
    "$vasm" --raw --base $base -o "$work/a.bin" "$work/all.s"
    # --pcrel-disp: a numeric PC-relative operand would otherwise mean
    # absolute mode to an assembler (GNU as turns it into @#addr).
    "$vdis" --raw --base $base --no-addr --pcrel-disp "$work/a.bin" >"$work/dis.s"
    # Every instruction of the source is valid, so vdis must not have
    # fallen back to .byte anywhere (that would make the round trip hollow).
    if grep -q '\.byte' "$work/dis.s"; then
        echo "FAIL: vdis could not decode these instructions:"
        grep -n '\.byte' "$work/dis.s" | head -n 20
        exit 1
    fi
    "$vasm" --raw --base $base -o "$work/b.bin" "$work/dis.s"
    if ! cmp -s "$work/a.bin" "$work/b.bin"; then
        echo "FAIL: vasm -> vdis -> vasm changed the bytes"
        explain "$work/a.bin" "$work/b.bin"
        exit 1
    fi
    echo "roundtrip: $(grep -cP '^\S*\t[a-z]' "$work/all.s") instructions, $(stat -c %s "$work/a.bin") bytes identical"
    ;;
gas)
    source --gas >"$work/all.s"
    "$vasm" --raw --base $base -o "$work/vasm.bin" "$work/all.s"
    # gas warns about absolute-mode address operands; the bytes are what count.
    "$gnu/bin/as" -o "$work/all.o" "$work/all.s" 2>"$work/as.log" ||
        { cat "$work/as.log"; exit 1; }
    "$gnu/bin/ld" -N -Ttext $base -e 0 -o "$work/all.elf" "$work/all.o" 2>"$work/ld.log" ||
        { cat "$work/ld.log"; exit 1; }
    "$gnu/bin/objcopy" -O binary "$work/all.elf" "$work/gas.bin"
    if ! cmp -s "$work/vasm.bin" "$work/gas.bin"; then
        echo "FAIL: vasm and GNU as differ"
        explain "$work/vasm.bin" "$work/gas.bin"
        exit 1
    fi
    echo "gas: $(grep -c '^1:' "$work/all.s") instructions, $(stat -c %s "$work/vasm.bin") bytes identical to GNU as + ld"
    ;;
simh)
    source --gas >"$work/all.s"
    "$vasm" --raw --base $base -o "$work/a.bin" "$work/all.s"
    "$vdis" --raw --base $base "$work/a.bin" >"$work/vdis.txt"
    size=$(stat -c %s "$work/a.bin")
    last=$(printf %X $((base + size - 1)))
    printf 'load -o %s %X\nex -m %X:%s\nquit\n' "$work/a.bin" $base $base "$last" >"$work/dis.sim"
    (cd "$work" && vax780 dis.sim </dev/null >simh.txt 2>&1)
    python3 "$here/simh_compare.py" "$work/vdis.txt" "$work/simh.txt"
    ;;
*)
    echo "usage: allmodes.sh roundtrip|gas|simh GEN VASM VDIS [GNUDIR]" >&2
    exit 2
    ;;
esac
