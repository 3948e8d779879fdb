#!/bin/bash
# The microassembler's diagnostics: each bad input must fail with status 1
# and a "file:line: message" naming the problem.
set -u
uasm=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0

check() { # name, expected regex, source text
    local name=$1 want=$2
    printf '%s\n' "$3" >"$work/$name.mic"
    "$uasm" -o "$work/$name.img" "$work/$name.mic" 2>"$work/err"
    local rc=$?
    if [ $rc -ne 1 ] || ! grep -Eq "^$work/$name.mic:$want" "$work/err"; then
        echo "FAIL $name: status $rc, stderr:"; cat "$work/err"
        fail=1
    else
        echo "ok   $name: $(head -n1 "$work/err" | sed "s|$work/||")"
    fi
}

check undefined-label '2: undefined label .NOWHERE.' \
'A:  T0 <- R1
    GOTO NOWHERE'
check duplicate-label "2: duplicate label 'A'" \
'A:  T0 <- R1
A:  T1 <- R2, RET'
check duplicate-address '4: duplicate micro-address 0x0010' \
'.org 0x10
    T0 <- R1
.org 0x10
    T1 <- R2'
check two-alu-functions '1: field conflict: two ALU functions' \
'    T0 <- ADD(R1, R2), T1 <- SUB(R1, R2)'
check literal-conflict '1: field conflict: K is already' \
'    T0 <- ADD(R1, #1), T1 <- #2'
check two-sequencing '1: field conflict: two sequencing' \
'X:  T0 <- R1, GOTO X, RET'
check read-and-mdr '1: field conflict: MEM=READ loads MDR' \
'    MDR <- R1, MEM=READ'
check literal-range '1: literal .* out of range' \
'    T0 <- ADD(R1, #0x100000000)'
check opk-range '1: OPK value .9. out of range' \
'    T0 <- OPVK, OPK=9'
check org-range '1: .org address .* out of range' \
'.org 0x4000'
check unknown-source "1: unknown source 'R16'" \
'    T0 <- R16'
check not-writable "1: 'ZERO' is not a writable destination" \
'    ZERO <- R1'
check ib-on-b '1: IB can only be read on the A bus' \
'    T0 <- ADD(R1, IB)'
check both-buses-same-dst '1: field conflict: both buses write T0' \
'    T0 <- ADD(R1, R2), T0 <- R3'
check res-source '1: field conflict: RES is a destination of the ALU bus' \
'    T0 <- ADD(RES, R1)'
check res-with-memory '1: field conflict: RES in a word with a memory request' \
'    RES <- R1, MEM=WRITE'
check res-with-ib '1: field conflict: RES in a word with a memory request or an IB source' \
'    RES <- IB'

# RES and IRD IF ... ELSE DISPATCH OPREG assemble; the listing names both
printf 'T: RES <- ADD(R1, R2), IRD IF OPREG.NOVT ELSE DISPATCH OPREG T\n' >"$work/res.mic"
if ! "$uasm" --listing - -o "$work/res.img" "$work/res.mic" |
        grep -q 'DST=RES .*SEQ=IRDIF COND=OPREG.NOVT DISP=OPREG NEXT=0000'; then
    echo "FAIL res listing"; fail=1
else
    echo "ok   res listing"
fi

# a good file assembles, and the listing shows addresses and fields
printf 'START: T0 <- ADD(R1, #5), DL=B, GOTO START\n' >"$work/good.mic"
if ! "$uasm" --listing - -o "$work/good.img" "$work/good.mic" | grep -q '0000  START:'; then
    echo "FAIL listing"; fail=1
fi
if ! "$uasm" --listing - "$work/good.mic" | grep -q 'ALU=ADD A=R1 B=K K=0x5 DL=B SEQ=JUMP NEXT=0000'; then
    echo "FAIL listing fields"; "$uasm" --listing - "$work/good.mic"; fail=1
fi
exit $fail
