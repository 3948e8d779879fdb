#!/bin/bash
# Machine configuration files (issue 32): `spamctl run --config FILE` and
# `spamctl boot FILE`.  A good file runs the console echo guest as its
# command line would; the command line's options come after the file's;
# every bad line is a usage error naming FILE:LINE; an unreadable file is
# bad input.  (The checked-in 4.3BSD example boots in tests/bsd43.)
#   config.sh SPAMCTL ECHO.elf WORKDIR
set -uo pipefail
spamctl=$(realpath "$1"); echo_elf=$(realpath "$2"); work=$3
fail=0
bad() { echo "FAIL: $*"; fail=1; }
rm -rf "$work"; mkdir -p "$work"; cd "$work" || exit 1
cp "$echo_elf" echo.elf

cat >good.conf <<'CONF'
# the console echo guest, typed at by a string
; SIMH's comment character works too
memory 2m
load echo.elf
set console-in "ab c!"        # a quoted word keeps its blank
set max-cycles 50000000
CONF
out=$("$spamctl" run --config good.conf --console-out con.txt 2>&1); rc=$?
[ $rc -eq 0 ] || bad "good config: exit $rc: $out"
grep -q "halted: HALT instruction" <<<"$out" || bad "good config: no HALT: $out"
[ "$(cat con.txt)" = "$(printf 'console echo ready\r\nab c')" ] || bad "good config: console $(od -c con.txt | head -3)"
out=$("$spamctl" boot good.conf --console-out con2.txt 2>&1); rc=$?
[ $rc -eq 0 ] && cmp -s con.txt con2.txt || bad "spamctl boot FILE: exit $rc: $out"
# the command line comes after the file: its --max-cycles wins
out=$("$spamctl" run --config good.conf --max-cycles 1000 --console-out con3.txt 2>&1); rc=$?
[ $rc -eq 0 ] && grep -q "stopped: cycle limit" <<<"$out" || bad "command line after the file: $out"
# the trace and the dump named by set
printf 'load echo.elf\nset console-in "!"\nset trace t.spam\nset dump-state st.json\n' >t.conf
"$spamctl" run --config t.conf >/dev/null 2>&1 && [ -s t.spam ] && grep -q '"halted": true' st.json ||
    bad "set trace / set dump-state"

# every bad line: exit 2 and FILE:LINE
expect_bad() { # NAME LINE-TEXT WANT-IN-MESSAGE
    printf '# a comment\nload echo.elf\n%s\n' "$2" >bad.conf
    msg=$("$spamctl" run --config bad.conf 2>&1 >/dev/null); rc=$?
    if [ $rc -ne 2 ] || ! grep -q "bad.conf:3" <<<"$msg" || ! grep -qF -- "$3" <<<"$msg"; then
        bad "$1: exit $rc, message: $msg"
    fi
}
expect_bad "unknown command" "frobnicate rp0" "unknown command 'frobnicate'"
expect_bad "attach without a file" "attach rp0" "attach: give [-r] DEV FILE"
expect_bad "attach -x" "attach -x rp0 d.dsk" "attach: give [-r] DEV FILE"
expect_bad "boot without a device" "boot" "boot: give the device"
expect_bad "memory twice" "memory 8 16" "memory: give the size"
expect_bad "memory not a number" "memory lots" "bad value for --memory: 'lots'"
expect_bad "net bad key" "net speed=3" "net: 'speed=3' is no KEY=VALUE"
expect_bad "net bad rate" "net rate=-5" "bad value for --net-rate: '-5'"
expect_bad "dz bad key" "dz 1 user=x" "dz LINE: 'user=x' is no KEY=VALUE"
expect_bad "dz bad br" "dz br=9" "bad value for --dz-br: '9'"
expect_bad "set unknown option" "set frob 1" "unknown option '--frob'"
expect_bad "set with dashes" "set --memory 8" "set: give an option of spamctl run"
expect_bad "set config" "set config other.conf" "a configuration file cannot name another"
expect_bad "an open quote" 'set console-in "abc' "a quote is not closed"
expect_bad "todr bad" "todr yesterday" "bad value for --todr: 'yesterday'"
expect_bad "two images" "load other.elf" "more than one image given"
# the file itself
msg=$("$spamctl" run --config nothere.conf 2>&1); rc=$?
[ $rc -eq 1 ] && grep -q "nothere.conf: No such file or directory" <<<"$msg" || bad "missing file: $rc $msg"
head -c 300 /dev/urandom | tr -d '\n' >bin.conf; printf '\0x' >>bin.conf
msg=$("$spamctl" run --config bin.conf 2>&1); rc=$?
[ $rc -eq 1 ] && grep -q "not a text file" <<<"$msg" || bad "binary file: $rc $msg"
msg=$("$spamctl" run --config good.conf --config t.conf 2>&1); rc=$?
[ $rc -eq 2 ] || bad "two --config: $rc $msg"
msg=$("$spamctl" boot 2>&1); rc=$?
[ $rc -eq 2 ] || bad "boot without a file: $rc $msg"
[ $fail -eq 0 ] && echo "config: all checks passed"
exit $fail
