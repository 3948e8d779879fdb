#!/bin/sh
# spamctl probe's command line (issue 31): help, usage errors, a script's
# error with its line, column and caret, --dump's listing read back by the
# text form, and running before the probe unit exists (exit 3).
# Usage: probe_cli.sh SPAMCTL
set -u
S=$1
T=${TMPDIR:-/tmp}/probe_cli.$$
mkdir -p "$T"
trap 'rm -rf "$T"' EXIT
# no 4.3BSD here: a script without --kernel/--disk gets numbers only, and
# nothing is installed into the user's cache
export SPAMCTL_BSD43_DIST="$T/no-distribution" XDG_CACHE_HOME="$T/cache"
fails=0
check() { # NAME WANT_STATUS GOT_STATUS FILE PATTERN
    if [ "$3" != "$2" ]; then
        echo "FAIL $1: exit $3, expected $2"; cat "$4"; fails=$((fails + 1)); return
    fi
    if ! grep -q -- "$5" "$4"; then
        echo "FAIL $1: no '$5' in:"; cat "$4"; fails=$((fails + 1)); return
    fi
    echo "ok $1"
}
# no names are needed by these scripts: an empty kernel-less guest
NOK="--kernel /nonexistent/vmunix"
"$S" probe --help >"$T/o" 2>&1; check help 0 $? "$T/o" "Usage: spamctl probe"
grep -q "kretprobe:FUNC" "$T/o" && grep -q "Exit status" "$T/o" || { echo "FAIL help text"; fails=$((fails + 1)); }
"$S" --help >"$T/o" 2>&1; check listed 0 $? "$T/o" "probe  *measure the guest"
"$S" probe >"$T/o" 2>&1; check no-program 2 $? "$T/o" "Usage: spamctl probe"
"$S" probe --bogus 'BEGIN { }' >"$T/o" 2>&1; check unknown-option 2 $? "$T/o" "unknown option '--bogus'"
"$S" probe --budget 0 'BEGIN { }' >"$T/o" 2>&1; check budget 2 $? "$T/o" "--budget needs microcycles"
"$S" probe -e 'BEGIN { }' 'END { }' >"$T/o" 2>&1; check two-programs 2 $? "$T/o" "one program"
"$S" probe -l 'x' 'BEGIN { }' >"$T/o" 2>&1; check list-and-program 2 $? "$T/o" "takes no program"
"$S" probe $NOK 'BEGIN { }' >"$T/o" 2>&1; check no-kernel 1 $? "$T/o" "/nonexistent/vmunix"
"$S" probe -f "$T/none.bt" >"$T/o" 2>&1; check no-file 1 $? "$T/o" "none.bt: No such file"
# (see below for the run)
# a script error: FILE:LINE:COL, the line and a caret under the column
printf 'profile:hz:100 {\n  @x[pid] = count();\n  @y = bogus + 1;\n}\n' >"$T/e.bt"
"$S" probe --no-names -f "$T/e.bt" >"$T/o" 2>&1; st=$?
if [ $st = 1 ] && grep -q "e.bt:3:8: unknown identifier 'bogus'" "$T/o" &&
   grep -q "^      @y = bogus + 1;" "$T/o" && grep -q "^           ^" "$T/o"; then
    echo "ok error-position"
else
    echo "FAIL error-position (exit $st)"; cat "$T/o"; fails=$((fails + 1))
fi
"$S" probe --no-names 'kprobe:ipintr { }' >"$T/o" 2>&1
check needs-kernel 1 $? "$T/o" "kernel symbols need the guest's kernel"
"$S" probe --no-names --disk x 'BEGIN { }' >"$T/o" 2>&1
check no-names-and-disk 2 $? "$T/o" "--no-names excludes"
# --dump: the listing reads back through the text form (spamctl run --probes)
"$S" probe --no-names --dump -e 'profile:hz:1000 /mode == user && pid != 1/ { @[pid % 64] = count(); if (pid > 9) { @b = hist(pid); } }' >"$T/d" 2>"$T/de"
check dump 0 $? "$T/d" "probe q0 sample 0x30d4 modes user"
grep -q "^# m0 = @: count, 64 keys" "$T/d" || { echo "FAIL dump header"; cat "$T/d"; fails=$((fails + 1)); }
grep -q "^# q0 = profile:hz:1000: worst case [0-9]* of a budget of 2000" "$T/d" || { echo "FAIL dump cost"; fails=$((fails + 1)); }
# a budget too small: the verifier's refusal at the probe
"$S" probe --no-names --dump --budget 50 -e 'profile:hz:100 { @[pid % 64] = count(); }' >"$T/o" 2>&1
check refused 1 $? "$T/o" "-e:1:1: the machine refuses profile:hz:100: worst case"
# running needs a machine
"$S" probe --no-names -e 'profile:hz:100 { @[pid % 64] = count(); }' >"$T/o" 2>&1
check no-machine 2 $? "$T/o" "no machine: --os 4.3bsd"
"$S" probe --os 4.2bsd 'BEGIN { }' >"$T/o" 2>&1
check os 2 $? "$T/o" "--os takes 4.3bsd"
# a program on spamctl run's machine: a VAX program that halts at once
# (no guest to name things: numbers); BEGIN and END in the host, a count
# movl #10000, r0; 1: sobgtr r0, 1b; halt
printf '\320\217\020\047\000\000\120\365\120\375\000' >"$T/loop.bin"
"$S" probe --no-names 'BEGIN { printf("begin\n"); } profile:us:100 { @samples = count(); @pc[pc & 0xFF] = count(); }
END { printf("end %d\n", @samples); }' -- --raw "$T/loop.bin" --load-at 0x1000 >"$T/o" 2>&1
st=$?
n=$(sed -n 's/^end \([0-9]*\)$/\1/p' "$T/o")
if [ $st = 0 ] && grep -q "^begin$" "$T/o" && [ "${n:-0}" -gt 10 ] && grep -q "^@samples: $n$" "$T/o" &&
   grep -q "^@pc\[7\]: " "$T/o" && grep -q "^probes (charged): [0-9]* microcycles of" "$T/o"; then
    echo "ok run ($n samples)"
else
    echo "FAIL run (exit $st)"; cat "$T/o"; fails=$((fails + 1))
fi
if [ $fails -ne 0 ]; then
    echo "probe_cli: $fails failed"; exit 1
fi
echo "probe_cli: all passed"
