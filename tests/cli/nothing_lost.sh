#!/bin/bash
# Issue 20, "nothing lost": one regression test per defect (D1-D11), each
# failing on the tools as they were and passing now.  A trace is never
# destroyed or silently shortened, every write error is reported (one line:
# the path and the cause, exit 1), SIGINT/SIGTERM end a run cleanly.
#
#   nothing_lost.sh SPAMCTL VASM VDIS UASM KERNEL.BIN HELLO.ELF SRCDIR
set -uo pipefail
spamctl=$(realpath "$1") vasm=$(realpath "$2") vdis=$(realpath "$3") uasm=$(realpath "$4")
kernel=$(realpath "$5") hello=$(realpath "$6") src=$(realpath "$7")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
. "$src/tests/cli/check_lib.sh"

demo=$src/traces/demo.spam
"$vasm" --raw --base 0x1000 -o markers.bin "$src/tests/spam_machine/progs/markers.s" || exit 1
printf '1:\tincl %%r0\n\tbrb 1b\n' >loop.s
"$vasm" --raw --base 0x1000 -o loop.bin loop.s || exit 1
"$spamctl" run --raw markers.bin --load-at 0x1000 -o m.spam >/dev/null || exit 1

# ---- D1: a command never destroys its own input; a shrinking file is an error
cp "$demo" t.spam
"$spamctl" compress t.spam t.spam 2>err.txt; st=$?
rc_msg "D1 compress in place" 0 ''
"$spamctl" decompress t.spam t.spam 2>err.txt; st=$?
rc_msg "D1 decompress in place" 0 ''
check "D1 compress/decompress in place keeps the trace" cmp -s t.spam "$demo"
"$spamctl" export --chrome t.spam t.spam 2>err.txt; st=$?
rc_msg "D1 export --chrome onto its trace" 2 'would overwrite the input t.spam'
check "D1 export onto its trace leaves it" cmp -s t.spam "$demo"
"$spamctl" hist --svg t.spam t.spam >/dev/null 2>err.txt; st=$?
rc_msg "D1 hist --svg onto its trace" 2 'would overwrite the input t.spam'
check "D1 hist --svg onto its trace leaves it" cmp -s t.spam "$demo"
# a reader whose file is truncated under it: decode blocks on a full pipe
# after its first read (1 MiB of a 6.4 MB trace), the file shrinks, then the
# pipe is drained
sed 's/\$70000/$400000/' "$src/tests/spam_machine/progs/markers.s" >big.s
"$vasm" --raw --base 0x1000 -o big.bin big.s &&
    "$spamctl" run --raw big.bin --load-at 0x1000 -o big.spam >/dev/null || bad "D1 big trace"
mkfifo fifo
"$spamctl" decode big.spam >fifo 2>err.txt &
pid=$!
exec 3<fifo
sleep 0.5
truncate -s 1000 big.spam
cat <&3 >/dev/null
exec 3<&-
wait $pid; st=$?
rc_msg "D1 file truncated while read" 1 'big.spam: .*shrank'

# ---- D2: the drain tap takes a full buffer for a full one
"$spamctl" run --raw markers.bin --load-at 0x1000 -o tap.spam --drain-tap --drain-every 1000000000 >/dev/null
r=$("$spamctl" stat --json tap.spam | json 'd["records"], d["dropped"]')
check "D2 --drain-tap on a full buffer: records, drops = $r" [ "$r" = "131072 8929" ]

# ---- D3: DISABLE on a full buffer counts the lost marker
"$spamctl" run --raw markers.bin --load-at 0x1000 -o full.spam --drain-every 1000000000 >/dev/null
r=$("$spamctl" stat --json full.spam | json 'd["records"] + d["dropped"]')
check "D3 every marker recorded or counted ($r of 140001)" [ "$r" = 140001 ]

# ---- D4: a complete header with fewer records is an error (--partial: a warning)
head -c 1000 "$demo" >short.spam
n=$("$spamctl" stat --json "$demo" | json 'd["records"]') # the sample trace's count
for c in stat decode hist compress decompress "export --chrome short.json"; do
    "$spamctl" $c short.spam >/dev/null 2>err.txt </dev/null; st=$?
    rc_msg "D4 $c of a short trace" 1 "short.spam: .*header says $n records, the file holds 109"
    "$spamctl" $c --partial short.spam >/dev/null 2>err.txt </dev/null; st=$?
    rc_msg "D4 $c --partial" 0 "short.spam: warning: .*$n.*109"
done
head -c 100000 m.spam >shortm.spam
"$spamctl" stat shortm.spam >/dev/null 2>err.txt; st=$?
rc_msg "D4 a short trace of our own format" 1 'shortm.spam: .*header says 140001 records, the file holds 12484'

# ---- D5: every write error is reported, one line with the path and the cause
for c in "decode $demo" "stat $demo" "hist $demo" "run --raw markers.bin --load-at 0x1000 -o d5.spam" \
         "demo --os ours --duration 0.5 -o d5d.spam"; do
    "$spamctl" $c >/dev/full 2>err.txt; st=$?
    rc_msg "D5 spamctl ${c%% *} to /dev/full" 1 '<stdout>: No space left on device'
done
"$vasm" --listing -o l.elf loop.s >/dev/full 2>err.txt; st=$?
rc_msg "D5 vasm --listing to /dev/full" 1 '<stdout>: No space left on device'
"$uasm" --listing - "$src"/microcode/*.mic >/dev/full 2>err.txt; st=$?
rc_msg "D5 uasm --listing to /dev/full" 1 '<stdout>: No space left on device'
"$spamctl" run "$hello" --console-in '' --console-out /dev/full >/dev/null 2>err.txt; st=$?
rc_msg "D5 run --console-out /dev/full" 1 '/dev/full: No space left on device'
"$spamctl" export --chrome /nonexistent/x.json "$demo" 2>err.txt; st=$?
rc_msg "D5 export --chrome to a missing directory" 1 '/nonexistent/x.json: .*No such file or directory'
"$spamctl" export --chrome /dev/full "$demo" 2>err.txt; st=$?
rc_msg "D5 export --chrome /dev/full" 1 '/dev/full: No space left on device'
"$spamctl" hist --svg /dev/full "$demo" >/dev/null 2>err.txt; st=$?
rc_msg "D5 hist --svg /dev/full" 1 '/dev/full: No space left on device'
"$spamctl" run --raw markers.bin --load-at 0x1000 -o d5.spam --dump-state /nonexistent/s.json 2>err.txt; st=$?
rc_msg "D5 run --dump-state to a missing directory" 1 '/nonexistent/s.json: .*No such file or directory'
"$spamctl" run --raw markers.bin --load-at 0x1000 --dump-state /dev/full 2>err.txt; st=$?
rc_msg "D5 run --dump-state /dev/full" 1 '/dev/full: No space left on device'
"$uasm" -o /nonexistent/u.img "$src"/microcode/*.mic 2>err.txt; st=$?
rc_msg "D5 uasm -o to a missing directory" 1 '/nonexistent/u.img: No such file or directory'
"$uasm" -o /dev/full "$src"/microcode/*.mic 2>err.txt; st=$?
rc_msg "D5 uasm -o /dev/full" 1 '/dev/full: No space left on device'
# the disk fills during a traced run (a file size limit: EFBIG)
(ulimit -f 200; trap '' XFSZ; exec "$spamctl" run --raw markers.bin --load-at 0x1000 -o efbig.spam >out.txt 2>err.txt); st=$?
rc_msg "D5 trace write fails during the run" 1 'efbig.spam: File too large'
check "D5 the summary after a failed trace write is not 'cycle limit': $(cat out.txt)" \
    grep -q '^stopped: trace write error' out.txt
"$spamctl" stat efbig.spam >/dev/null 2>err.txt; st=$?
rc_msg "D5 what was written is readable, the header incomplete" 0 'did not finish'
cp "$demo" keep.spam
(ulimit -f 10; trap '' XFSZ; exec "$spamctl" compress -9 "$demo" keep.spam 2>err.txt); st=$?
rc_msg "D5 compress onto a full disk" 1 'keep.spam: .*File too large'
check "D5 a failed compress leaves the old output" cmp -s keep.spam "$demo"

# ---- D6: SIGINT and SIGTERM end run and demo cleanly; SIGKILL leaves a prefix
run_signal() { # SIG FILE ARGS...: start, wait 0.7 s, send SIG; $st, out.txt
    local sig=$1; shift
    set -m
    "$spamctl" "$@" >out.txt 2>err.txt &
    local p=$!
    set +m
    sleep 0.7
    kill -"$sig" $p
    wait $p; st=$?
}
run_signal INT run --raw loop.bin --load-at 0x1000 --max-cycles 100000000000 -o sigint.spam
check "D6 run SIGINT: exit $st, $(cat out.txt)" [ $st -eq 130 ]
check "D6 run SIGINT: summary" grep -q '^stopped: interrupted at PC' out.txt
check "D6 run SIGINT: header complete" \
    [ "$("$spamctl" stat --json sigint.spam 2>/dev/null | json 'd["complete"]')" = True ]
run_signal TERM run --raw loop.bin --load-at 0x1000 --max-cycles 100000000000 -o sigterm.spam --dump-state st.json
check "D6 run SIGTERM: exit $st" [ $st -eq 143 ]
check "D6 run SIGTERM: state says interrupted" [ "$(json 'd["reason"], d["halted"]' <st.json)" = "interrupted False" ]
"$spamctl" stat sigterm.spam >/dev/null 2>err.txt; st=$?
rc_msg "D6 run SIGTERM: the trace reads clean" 0 ''
run_signal TERM demo --os ours --duration 60 -o sigdemo.spam
check "D6 demo SIGTERM: exit $st" [ $st -eq 143 ]
check "D6 demo SIGTERM: report" grep -q 'stopped: interrupted' out.txt
"$spamctl" stat sigdemo.spam >/dev/null 2>err.txt; st=$?
rc_msg "D6 demo SIGTERM: the trace reads clean" 0 ''
run_signal KILL run --raw loop.bin --load-at 0x1000 --max-cycles 100000000000 -o sigkill.spam
check "D6 run SIGKILL: exit $st" [ $st -eq 137 ]
"$spamctl" stat sigkill.spam >/dev/null 2>err.txt; st=$?
rc_msg "D6 run SIGKILL: a readable prefix" 0 'did not finish'

# ---- D7: a kernel that never reaches its first clock tick is an error
head -c 4096 "$kernel" >trunc.bin
python3 -c "
import random; b = bytearray(open('$kernel', 'rb').read()); r = random.Random(5)
for i in range(200): b[r.randrange(0x40, len(b))] ^= 0xFF
open('corrupt.bin', 'wb').write(b)"
for k in trunc.bin corrupt.bin; do
    "$spamctl" demo --image $k --duration 1 -o d7.spam >/dev/null 2>err.txt; st=$?
    rc_msg "D7 demo --image $k" 1 "$k: the guest never reached its first clock tick"
done

# ---- D8: --max-cycles 0 is refused; 'unlimited' is the spelled-out no limit
timeout 20 "$spamctl" run --raw loop.bin --load-at 0x1000 --max-cycles 0 >/dev/null 2>err.txt; st=$?
rc_msg "D8 --max-cycles 0" 2 "unlimited"
"$spamctl" run --raw markers.bin --load-at 0x1000 -o d8.spam --max-cycles unlimited >out.txt 2>err.txt; st=$?
rc_msg "D8 --max-cycles unlimited" 0 ''
check "D8 unlimited runs to HALT" grep -q '^halted: HALT instruction' out.txt

# ---- D9: vasm's expression depth has a limit, not a stack overflow
python3 -c "print('\t.long ' + '(' * 30000 + '1' + ')' * 30000)" >paren.s
python3 -c "print('\t.long ' + '-~' * 300000 + '1')" >unary.s
for f in paren.s unary.s; do
    "$vasm" -o d9.o $f 2>err.txt; st=$?
    rc_msg "D9 vasm $f" 1 "^$f:1: expression nested too deeply"
done
python3 -c "print('\t.long ' + '(' * 200 + '1' + ')' * 200)" >ok200.s
"$vasm" -o d9.o ok200.s 2>err.txt; st=$?
rc_msg "D9 vasm 200 levels still assemble" 0 ''

# ---- D10: CRC-32 of a complete trace and of a control-store image
flip() { # FILE OFFSET: invert one byte
    python3 -c "
import sys; b = bytearray(open(sys.argv[1], 'rb').read()); b[int(sys.argv[2])] ^= 0xFF
open(sys.argv[1], 'wb').write(b)" "$1" "$2"
}
cp m.spam flip-rec.spam && flip flip-rec.spam 500000
cp m.spam flip-hdr.spam && flip flip-hdr.spam 70 # in the guest name
for f in flip-rec.spam flip-hdr.spam; do
    for c in stat decode hist "export --chrome x.json" compress decompress; do
        "$spamctl" $c $f >/dev/null 2>err.txt </dev/null; st=$?
        rc_msg "D10 $c of $f" 1 "$f: offset [0-9]+: CRC-32 mismatch"
    done
done
"$spamctl" compress m.spam m2.z && "$spamctl" decompress m2.z m2.spam && cmp -s m.spam m2.spam
check "D10 the CRC survives a compression round trip" [ $? -eq 0 ]
"$uasm" -o u.img "$src"/microcode/*.mic || bad "D10 uasm -o"
"$spamctl" run --raw markers.bin --load-at 0x1000 --microcode u.img >/dev/null 2>err.txt; st=$?
rc_msg "D10 an intact image runs" 0 ''
size=$(stat -c %s u.img)
for off in 100 $((size / 2)) $((size - 10)) $((size - 2)); do
    cp u.img uf.img && flip uf.img $off
    "$spamctl" run --raw markers.bin --load-at 0x1000 --microcode uf.img >/dev/null 2>err.txt; st=$?
    rc_msg "D10 a control-store image with byte $off flipped" 1 'uf.img: control-store image damaged'
done

# ---- D11: messages
mkdir adir
for c in stat decode hist compress decompress "export --chrome x.json"; do
    "$spamctl" $c adir >/dev/null 2>err.txt </dev/null; st=$?
    rc_msg "D11 spamctl $c of a directory" 1 'adir: is a directory'
done
"$vdis" adir >/dev/null 2>err.txt; st=$?
rc_msg "D11 vdis of a directory" 1 'adir: Is a directory'
"$vasm" -o x.o adir 2>err.txt; st=$?
rc_msg "D11 vasm of a directory" 1 'adir: Is a directory'
"$spamctl" run --raw adir --load-at 0 >/dev/null 2>err.txt; st=$?
rc_msg "D11 run --raw of a directory" 1 'adir: Is a directory'
: >empty.img
"$spamctl" run --raw markers.bin --load-at 0x1000 --microcode empty.img >/dev/null 2>err.txt; st=$?
rc_msg "D11 an empty --microcode file" 1 'empty.img: empty file'
"$spamctl" hist --records 99999999999999999999999 "$demo" >/dev/null 2>err.txt; st=$?
rc_msg "D11 hist --records overflowing" 2 'bad --records'
for sym in 'a b' 1abc int 'x;y'; do
    "$uasm" --emit-c "$sym" -o e.c "$src"/microcode/*.mic 2>err.txt; st=$?
    rc_msg "D11 uasm --emit-c '$sym'" 2 'not a C identifier'
done

echo "nothing lost: $pass passed, $fail failed"
[ $fail -eq 0 ]
