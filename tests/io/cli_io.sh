#!/bin/sh
# spamctl run's device options: clear errors before the run, the exit
# statuses of cli/README.md, script failures naming the line.
# usage: cli_io.sh SPAMCTL
S=$1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
expect() { # STATUS PATTERN -- command...
    want=$1 pat=$2
    shift 3
    out=$("$@" 2>&1 </dev/null)
    got=$?
    if [ "$got" != "$want" ] || ! printf '%s' "$out" | grep -q -- "$pat"; then
        echo "FAIL: $* -> $got (want $want, '$pat'): $out"
        fails=$((fails + 1))
    fi
}
printf '\021\376' > "$T/loop.bin"          # BRB .
printf '\0' > "$T/halt.bin"
printf '\333\033\120\0' > "$T/todr.bin"    # MFPR #TODR, R0; HALT
truncate -s 174423040 "$T/rp06.dsk"
truncate -s 1000 "$T/odd.dsk"
printf 'garbage!' > "$T/bad.tap"
printf 'expect never\n' > "$T/never.script"
printf 'expect x\nfrobnicate\n' > "$T/bad.script"
R="$S run --raw $T/loop.bin --load-at 0x1000 --max-cycles 100000000"

expect 1 "no device 'rp7'" -- $R --attach rp7=$T/rp06.dsk
expect 1 "No such file" -- $R --attach rp0=$T/nonexistent.dsk
expect 1 "not a disk image" -- $R --attach rp0=$T/odd.dsk
expect 1 "not a SIMH tape image" -- $R --attach tu0:ro=$T/bad.tap
expect 2 "DEV=FILE" -- $R --attach rp0
expect 2 "attached twice" -- $R --attach rp0=$T/rp06.dsk --attach rp0:ro=$T/rp06.dsk
printf '\000\000\000\000' > "$T/empty.tap"      # one tape mark
expect 0 "cycle limit" -- $R --attach rp0:ro=$T/rp06.dsk --attach tu1:ro=$T/empty.tap
expect 1 "boot tu0: nothing is attached to tu0" -- $S run --boot tu0 --max-cycles 1000
expect 1 "boot rp0: .*no 4.2BSD superblock" -- $S run --boot rp0 --attach rp0=$T/rp06.dsk
expect 2 "give no image" -- $S run --boot tu0 --raw $T/loop.bin --load-at 0
expect 1 "bad.script:2: unknown command" -- $R --console-script $T/bad.script
expect 1 "never.script:1: expect \"never\" not seen within 0.01 s" -- \
    $R --console-script $T/never.script --expect-timeout 0.01
expect 1 "never.script:1: the run ended (HALT instruction)" -- \
    $S run --raw $T/halt.bin --load-at 0x1000 --console-script $T/never.script
expect 2 "exclude each other" -- $R --console-script $T/never.script --console-in x
expect 2 "bad value for --expect-timeout" -- $R --expect-timeout 0
expect 2 "bad value for --todr" -- $R --todr yesterday
# scripted users on dz0's lines (short runs: 2 M microcycles, 0.16 s)
printf 'loop\nthink 0.001\nrepeat\n' > "$T/think.script"
Rs="$S run --raw $T/loop.bin --load-at 0x1000 --max-cycles 2000000"
expect 1 "dz0 line 3 script .*never.script:1: expect \"never\" not seen within 0.01 s" -- \
    $R --dz-script 3=$T/never.script --expect-timeout 0.01
expect 1 "bad.script:2: unknown command" -- $R --dz-script 0=$T/bad.script
expect 1 "dz-script 2=.*No such file" -- $R --dz-script 2=$T/nonexistent.script
expect 2 "N=FILE, N a line of dz0" -- $R --dz-script 8=$T/never.script
expect 2 "N=FILE, N a line of dz0" -- $R --dz-log x
expect 2 "has one already" -- $R --dz-script 1=$T/never.script --dz-script 1=$T/think.script
expect 2 "bus request level, 4-7" -- $R --dz-br 3
expect 2 "would overwrite the input .*think.script (--dz-script 1)" -- $R --dz-script 1=$T/think.script --dz-log 2=$T/think.script
expect 2 "(--dz-log 1) and .*l.log (--dz-report) name the same file" -- $R --dz-log 1=$T/l.log --dz-report $T/l.log
expect 1 "dz-log 0=.*: " -- $R --dz-log 0=$T/nodir/l.log
expect 0 "dz0 line 5 user (.*think.script): running at line 2, [1-9][0-9]* rounds" -- \
    $Rs --dz-script 5=$T/think.script --dz-log 5=$T/l5.log --dz-report $T/users.json --dz-br 4
if ! python3 -c '
import json, sys
u = json.load(open(sys.argv[1]))["users"][0]
r = u["round_end"]
assert u["line"] == 5 and u["state"] == "running" and u["rounds"] == len(r) > 10, u
assert u["loop_at"] < r[0] and all(a < b for a, b in zip(r, r[1:])), "round times grow"
' "$T/users.json" || [ -s "$T/l5.log" ]; then
    echo "FAIL: --dz-report $T/users.json or --dz-log"
    fails=$((fails + 1))
fi
# the same seed, the same think times; another seed, others
a=$($Rs --dz-script 5=$T/think.script --seed 4 | grep 'dz0 line 5')
b=$($Rs --dz-script 5=$T/think.script --seed 4 | grep 'dz0 line 5')
c=$($Rs --dz-script 5=$T/think.script --seed 5 | grep 'dz0 line 5')
if [ "$a" != "$b" ] || [ "$a" = "$c" ]; then
    echo "FAIL: think times and seeds: '$a' '$b' '$c'"
    fails=$((fails + 1))
fi
# the TODR: a given value, the fixed date, 0 without --todr or --boot
for t in 1234:000004d2 fixed:611c2900 none:00000000; do
    opt=""
    [ "${t%%:*}" != none ] && opt="--todr ${t%%:*}"
    expect 0 "\"r\": \[\"0x${t#*:}\"" -- $S run --raw $T/todr.bin --load-at 0x1000 $opt --dump-state -
done
[ "$fails" = 0 ] && echo "cli-io: all passed"
exit $((fails != 0))
