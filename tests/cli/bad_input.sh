#!/bin/bash
# Bad input to the command line tools: each case must exit with status 1
# and print exactly one line on stderr, "FILE:LINE: message" for the
# assembler and "FILE: message" for ELF input, and never crash.
#
#   bad_input.sh VASM VDIS
set -uo pipefail
vasm=$1 vdis=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0 pass=0

# expect_asm NAME LINE REGEX SOURCE: assembling SOURCE fails at LINE with a
# message matching REGEX.
expect_asm() {
    local name=$1 line=$2 regex=$3 src=$4
    printf '%s\n' "$src" >"$work/$name.s"
    "$vasm" -o "$work/$name.out" "$work/$name.s" 2>"$work/err" >/dev/null
    local rc=$?
    local lines
    lines=$(wc -l <"$work/err")
    local msg
    msg=$(cat "$work/err")
    if [ $rc -eq 1 ] && [ "$lines" -eq 1 ] &&
        [[ $msg =~ ^$work/$name\.s:$line:\ .*$regex ]]; then
        pass=$((pass + 1))
    else
        echo "FAIL $name: exit $rc, $lines line(s): $msg"
        fail=$((fail + 1))
    fi
}

expect_asm unknown-mnemonic 2 "movx" $'\tnop\n\tmovx\t%r0,%r1'
expect_asm too-few-operands 1 "operand" $'\tmovl\t%r0'
expect_asm too-many-operands 1 "operand" $'\tmovl\t%r0,%r1,%r2'
expect_asm literal-destination 1 "" $'\tmovl\t%r0,$5'
expect_asm immediate-destination 1 "" $'\tincl\t$0x1000'
expect_asm register-address 1 "" $'\tmovab\t%r1,%r0'
expect_asm branch-range 1 "range" $'\tbrb\tfar\n\t.space\t300\nfar:\tnop'
expect_asm undefined-symbol 3 "nowhere" $'\tnop\n\tnop\n\tmovl\tnowhere,%r0'
expect_asm bad-register 1 "" $'\tmovl\t%r16,%r0'
expect_asm bad-expression 1 "" $'\t.long\t(1+'
expect_asm duplicate-label 2 "" $'a:\tnop\na:\tnop'
expect_asm index-by-pc 1 "" $'\tmovl\t(%r1)[%pc],%r0'
expect_asm index-of-register 1 "" $'\tmovl\t%r1[%r2],%r0'

# expect_elf NAME REGEX: vdis rejects the ELF file NAME with one line.
expect_elf() {
    local name=$1 regex=$2
    "$vdis" "$work/$name" 2>"$work/err" >/dev/null
    local rc=$?
    local lines
    lines=$(wc -l <"$work/err")
    local msg
    msg=$(cat "$work/err")
    if [ $rc -eq 1 ] && [ "$lines" -eq 1 ] && [[ $msg =~ $name:\ .*$regex ]]; then
        pass=$((pass + 1))
    else
        echo "FAIL elf $name: exit $rc, $lines line(s): $msg"
        fail=$((fail + 1))
    fi
}

printf '\tnop\n\thalt\n' >"$work/ok.s"
"$vasm" -o "$work/ok.elf" "$work/ok.s" || { echo "FAIL: cannot assemble ok.s"; exit 1; }
size=$(stat -c %s "$work/ok.elf")
head -c 10 "$work/ok.elf" >"$work/truncated-header.elf"
head -c $((size - 8)) "$work/ok.elf" >"$work/truncated-tail.elf"
printf 'not an elf file at all\n' >"$work/not-elf.elf"
# e_machine (offset 18, 2 bytes LE) = 62 (x86-64)
cp "$work/ok.elf" "$work/wrong-machine.elf"
printf '\x3e\x00' | dd of="$work/wrong-machine.elf" bs=1 seek=18 conv=notrunc status=none
# EI_CLASS = ELFCLASS64
cp "$work/ok.elf" "$work/wrong-class.elf"
printf '\x02' | dd of="$work/wrong-class.elf" bs=1 seek=4 conv=notrunc status=none
# EI_DATA = big endian
cp "$work/ok.elf" "$work/wrong-endian.elf"
printf '\x02' | dd of="$work/wrong-endian.elf" bs=1 seek=5 conv=notrunc status=none
: >"$work/empty.elf"

expect_elf truncated-header.elf ""
expect_elf truncated-tail.elf ""
expect_elf not-elf.elf ""
expect_elf wrong-machine.elf "62|x86"
expect_elf wrong-class.elf "64"
expect_elf wrong-endian.elf "endian"
expect_elf empty.elf ""

echo "bad input: $pass passed, $fail failed"
[ $fail -eq 0 ]
