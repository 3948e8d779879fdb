#!/bin/sh
# Assemble every tests/asm/corpus/*.s (and every corpus/*/ directory as one
# multi-file program) with vasm and with GNU as + ld -N, and compare bytes.
# usage: gas_compare.sh VASM AS LD OBJCOPY [CORPUS_DIR]
set -u
if [ $# -lt 4 ]; then
    echo "usage: $0 VASM AS LD OBJCOPY [CORPUS_DIR]" >&2
    exit 2
fi
VASM=$1 AS=$2 LD=$3 OBJCOPY=$4
CORPUS=${5:-$(dirname "$0")/corpus}
BASE=0x1000
TMP=$(mktemp -d "${TMPDIR:-/tmp}/gascmp.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT INT TERM
pass=0 fail=0 bytes=0

check() { # name files...
    name=$1; shift
    objs= i=0
    for f in "$@"; do
        i=$((i + 1))
        if ! "$AS" -o "$TMP/$i.o" "$f" 2>"$TMP/as.err"; then
            echo "FAIL $name: GNU as failed"; cat "$TMP/as.err"; fail=$((fail + 1)); return
        fi
        objs="$objs $TMP/$i.o"
    done
    # shellcheck disable=SC2086
    if ! "$LD" -N -Ttext $BASE -o "$TMP/gas.elf" $objs 2>"$TMP/ld.err"; then
        echo "FAIL $name: ld failed"; cat "$TMP/ld.err"; fail=$((fail + 1)); return
    fi
    "$OBJCOPY" -O binary "$TMP/gas.elf" "$TMP/gas.bin"
    if ! "$VASM" --raw --base $BASE -o "$TMP/vasm.bin" "$@" 2>"$TMP/vasm.err"; then
        echo "FAIL $name: vasm failed"; cat "$TMP/vasm.err"; fail=$((fail + 1)); return
    fi
    if cmp -s "$TMP/gas.bin" "$TMP/vasm.bin"; then
        n=$(wc -c <"$TMP/gas.bin")
        bytes=$((bytes + n)); pass=$((pass + 1))
        echo "ok   $name ($n bytes)"
    else
        echo "FAIL $name: bytes differ"
        cmp -l "$TMP/gas.bin" "$TMP/vasm.bin" 2>&1 | head -5
        fail=$((fail + 1))
    fi
}

for f in "$CORPUS"/*.s; do
    [ -e "$f" ] || continue
    check "$(basename "$f")" "$f"
done
for d in "$CORPUS"/*/; do
    [ -d "$d" ] || continue
    # shellcheck disable=SC2046
    check "$(basename "$d")/" $(ls "$d"*.s | sort)
done
echo "gas_compare: $pass passed, $fail failed, $bytes bytes compared"
[ "$fail" -eq 0 ]
