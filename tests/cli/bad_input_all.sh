#!/bin/bash
# Bad input to every command (issue 20): spamctl run, demo, stat, decode,
# hist, compress, decompress, export, and vasm, vdis, uasm, each given a
# missing file, an empty file, random bytes, a truncated and a bit-flipped
# valid file, a directory, an unwritable output and absurd option values.
# Every case asserts the exit status and the message (the first line on
# stderr, a regular expression), and that nothing crashed (no status above
# 128).  One line per case is printed, "ok|FAIL COMMAND CASE: exit N: the
# message", so the log lists what was tried.
#
#   bad_input_all.sh SPAMCTL VASM VDIS UASM KERNEL.BIN HELLO.ELF SRCDIR
set -uo pipefail
spamctl=$(realpath "$1") vasm=$(realpath "$2") vdis=$(realpath "$3") uasm=$(realpath "$4")
kernel=$(realpath "$5") hello=$(realpath "$6") src=$(realpath "$7")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
fail=0 pass=0

# expect NAME RC REGEX CMD...: CMD exits with RC and its first stderr line
# matches REGEX ('' = stderr empty); stdin is /dev/null, stdout discarded
# unless the command line redirects it itself (run through bash -c then).
expect() {
    local name=$1 rc=$2 regex=$3
    shift 3
    timeout 60 "$@" </dev/null >/dev/null 2>err.txt
    local st=$? first
    first=$(head -1 err.txt)
    local m=0
    if [ -z "$regex" ]; then [ ! -s err.txt ] && m=1; else [[ $first =~ $regex ]] && m=1; fi
    if [ $st -eq "$rc" ] && [ $m -eq 1 ]; then
        pass=$((pass + 1))
        echo "ok   $name: exit $st: $first"
    else
        fail=$((fail + 1))
        echo "FAIL $name: exit $st (want $rc, /$regex/): $(head -3 err.txt)"
    fi
}
# to_full NAME RC REGEX CMD...: the same with stdout on /dev/full
to_full() {
    local name=$1 rc=$2 regex=$3
    shift 3
    expect "$name" "$rc" "$regex" bash -c '"$@" >/dev/full' _ "$@"
}
flip() { # IN OUT OFFSET: OUT is IN with one byte inverted
    python3 -c "
import sys; b = bytearray(open(sys.argv[1], 'rb').read()); b[int(sys.argv[3])] ^= 0xFF
open(sys.argv[2], 'wb').write(b)" "$1" "$2" "$3"
}

# inputs
: >empty
mkdir adir
python3 -c "import random; r = random.Random(20); open('random', 'wb').write(bytes(r.randrange(256) for _ in range(65536)))"
"$vasm" --raw --base 0x1000 -o markers.bin "$src/tests/spam_machine/progs/markers.s" || exit 1
"$spamctl" run --raw markers.bin --load-at 0x1000 -o t.spam >/dev/null || exit 1
"$spamctl" compress t.spam t.z || exit 1
head -c 5000 t.spam >t-trunc.spam
head -c 100 t.spam >t-hdr.spam
flip t.spam t-flip.spam 40000
head -c 3000 t.z >t-trunc.z
flip t.z t-flip.z 2000
printf '\tmovl\t$1,%%r0\n\taddl2\t$2,%%r0\n\thalt\n' >ok.s
"$vasm" -o ok.elf ok.s || exit 1
size=$(stat -c %s ok.elf)
head -c $((size / 2)) ok.elf >trunc.elf
flip ok.elf flip.elf 18 # e_machine
head -c 20 ok.s >trunc.s # "\tmovl\t$1,%r0\n\taddl2" cut inside the second line
flip ok.s flip.s 2 # "movl" -> "m\x90vl"
cat "$src"/microcode/*.mic >all.mic
head -c 3000 "$src/microcode/ird.mic" >trunc.mic
python3 -c "
b = bytearray(open('all.mic', 'rb').read()); i = b.index(b'IRD'); b[i] ^= 0x20
open('flip.mic', 'wb').write(b)" # one IRD becomes iRD: an unknown name
"$uasm" -o ucs.img "$src"/microcode/*.mic || exit 1
usize=$(stat -c %s ucs.img)
head -c $((usize / 2)) ucs.img >trunc.img
flip ucs.img flip.img 1000
head -c 4096 "$kernel" >trunc.kernel
python3 -c "
import random; b = bytearray(open('$kernel', 'rb').read()); r = random.Random(5)
for i in range(200): b[r.randrange(0x40, len(b))] ^= 0xFF
open('flip.kernel', 'wb').write(b)"
nodir=/nonexistent/dir/out

# ---- spamctl stat, decode, hist, compress, decompress, export
for c in stat decode hist compress decompress "export --chrome x.json"; do
    n=${c%% *}
    expect "$n missing file" 1 "nothere.spam: cannot open: No such file" "$spamctl" $c nothere.spam
    expect "$n empty file" 1 "empty: offset 0: truncated header \(0 of 128 bytes\)" "$spamctl" $c empty
    expect "$n random bytes" 1 "random: offset 0: not a SPAM trace \(bad magic\)" "$spamctl" $c random
    expect "$n truncated trace" 1 "t-trunc.spam: offset 5000: short trace: the header says 140001 records, the file holds 609" \
        "$spamctl" $c t-trunc.spam
    expect "$n truncated header" 1 "t-hdr.spam: offset 100: truncated header" "$spamctl" $c t-hdr.spam
    expect "$n bit-flipped trace" 1 "t-flip.spam: offset [0-9]+: CRC-32 mismatch" "$spamctl" $c t-flip.spam
    expect "$n truncated compressed" 1 "t-trunc.z: offset [0-9]+: truncated block" "$spamctl" $c t-trunc.z
    expect "$n bit-flipped compressed" 1 "t-flip.z: offset [0-9]+: CRC mismatch in block" "$spamctl" $c t-flip.z
    expect "$n directory" 1 "adir: is a directory, not a trace" "$spamctl" $c adir
    expect "$n unknown option" 2 "unknown option '--bogus'" "$spamctl" $c --bogus t.spam
done
for c in stat decode hist; do
    to_full "$c stdout unwritable" 1 "spamctl $c: <stdout>: No space left on device" "$spamctl" $c t.spam
done
expect "compress unwritable output" 1 "$nodir: cannot create: No such file or directory" "$spamctl" compress t.spam $nodir
expect "compress output /dev/full" 1 "/dev/full: write failed: No space left on device" "$spamctl" compress t.spam /dev/full
expect "compress output a directory" 1 "adir: is a directory" "$spamctl" compress t.spam adir
expect "decompress unwritable output" 1 "$nodir: cannot create: No such file or directory" "$spamctl" decompress t.z $nodir
expect "decompress output /dev/full" 1 "/dev/full: No space left on device" "$spamctl" decompress t.z /dev/full
expect "export --chrome unwritable" 1 "$nodir: cannot create: No such file or directory" "$spamctl" export --chrome $nodir t.spam
expect "export --chrome /dev/full" 1 "/dev/full: No space left on device" "$spamctl" export --chrome /dev/full t.spam
expect "export --ctf unwritable" 1 "cannot create directory $nodir: No such file or directory" "$spamctl" export --ctf $nodir t.spam
expect "hist --svg unwritable" 1 "$nodir: cannot create: No such file or directory" "$spamctl" hist --svg $nodir t.spam
expect "stat --gap-us 0" 2 "--gap-us needs a number 1..65535" "$spamctl" stat --gap-us 0 t.spam
expect "stat --gap-us 2^64" 2 "--gap-us needs a number 1..65535" "$spamctl" stat --gap-us 18446744073709551616 t.spam
expect "decode --ipl 32" 2 "bad value for --ipl: '32'" "$spamctl" decode --ipl 32 t.spam
expect "decode --pid 70000" 2 "bad value for --pid: '70000'" "$spamctl" decode --pid 70000 t.spam
expect "decode --from -1" 2 "bad value for --from: '-1'" "$spamctl" decode --from -1 t.spam
expect "decode --vector 0x1000" 2 "bad value for --vector" "$spamctl" decode --vector 0x1000 t.spam
expect "decode --event int:nonsense" 2 "bad value for --event" "$spamctl" decode --event int:nonsense t.spam
expect "hist --records 10^23" 2 "bad --records" "$spamctl" hist --records 99999999999999999999999 t.spam
expect "hist --records -1" 2 "bad --records" "$spamctl" hist --records -1 t.spam
expect "hist --skip 10^23" 2 "bad --skip" "$spamctl" hist --skip 99999999999999999999999 t.spam
expect "hist --skip -1" 2 "bad --skip" "$spamctl" hist --skip -1 t.spam
expect "hist --linear 0:5" 2 "bad --linear" "$spamctl" hist --linear 0:5 t.spam
expect "hist --linear 1:10^7" 2 "bad --linear" "$spamctl" hist --linear 1:10000000 t.spam
expect "hist --by nothing" 2 "--by needs event, ipl or class" "$spamctl" hist --by nothing t.spam
expect "hist --svg without a file" 2 "--svg needs a file" "$spamctl" hist t.spam --svg
expect "compress -0" 2 "unknown option '-0'" "$spamctl" compress -0 t.spam
expect "compress three arguments" 2 "too many arguments" "$spamctl" compress t.spam a b
expect "export --lttng without --ctf" 2 "--lttng needs --ctf DIR" "$spamctl" export --lttng --chrome x t.spam
expect "export --gap-us 70000" 2 "--gap-us needs a number 1..65535" "$spamctl" export --chrome x --gap-us 70000 t.spam

# ---- spamctl run
expect "run missing ELF" 1 "nothere.elf" "$spamctl" run nothere.elf
expect "run empty ELF" 1 "empty" "$spamctl" run empty
expect "run random ELF" 1 "random: not an ELF file" "$spamctl" run random
expect "run truncated ELF" 1 "trunc.elf" "$spamctl" run trunc.elf
expect "run bit-flipped ELF" 1 "flip.elf: .*(machine|VAX)" "$spamctl" run flip.elf
expect "run ELF a directory" 1 "adir" "$spamctl" run adir
expect "run --raw missing" 1 "nothere.bin: No such file or directory" "$spamctl" run --raw nothere.bin --load-at 0
expect "run --raw empty (a valid empty program: memory is zero, HALT)" 0 "" "$spamctl" run --raw empty --load-at 0x1000
expect "run --raw random (runs to its stop)" 0 "" "$spamctl" run --raw random --load-at 0x1000 --max-cycles 100000
expect "run --raw a directory" 1 "adir: Is a directory" "$spamctl" run --raw adir --load-at 0
expect "run --microcode missing" 1 "nothere.img: No such file or directory" "$spamctl" run --raw markers.bin --load-at 0x1000 --microcode nothere.img
expect "run --microcode empty" 1 "empty: empty file" "$spamctl" run --raw markers.bin --load-at 0x1000 --microcode empty
expect "run --microcode random (read as source)" 1 "random:[0-9]+: " "$spamctl" run --raw markers.bin --load-at 0x1000 --microcode random
expect "run --microcode truncated image" 1 "trunc.img: control-store image damaged" "$spamctl" run --raw markers.bin --load-at 0x1000 --microcode trunc.img
expect "run --microcode bit-flipped image" 1 "flip.img: control-store image damaged" "$spamctl" run --raw markers.bin --load-at 0x1000 --microcode flip.img
expect "run --microcode truncated source" 1 "trunc.mic:[0-9]+: undefined label" "$spamctl" run --raw markers.bin --load-at 0x1000 --microcode trunc.mic
expect "run --microcode a directory" 1 "adir: Is a directory" "$spamctl" run --raw markers.bin --load-at 0x1000 --microcode adir
expect "run --console-in @missing" 1 "--console-in @nothere: No such file or directory" "$spamctl" run "$hello" --console-in @nothere
expect "run --console-in @directory" 1 "--console-in @adir: Is a directory" "$spamctl" run "$hello" --console-in @adir
expect "run -o unwritable" 1 "$nodir: No such file or directory" "$spamctl" run --raw markers.bin --load-at 0x1000 -o $nodir
expect "run -o /dev/full" 1 "/dev/full: cannot write header: No space left on device" "$spamctl" run --raw markers.bin --load-at 0x1000 -o /dev/full
expect "run -o a directory" 1 "adir: Is a directory" "$spamctl" run --raw markers.bin --load-at 0x1000 -o adir
expect "run --dump-state unwritable" 1 "$nodir: cannot create: No such file or directory" "$spamctl" run --raw markers.bin --load-at 0x1000 --dump-state $nodir
expect "run --console-out unwritable" 1 "$nodir: No such file or directory" "$spamctl" run "$hello" --console-in '' --console-out $nodir
expect "run --console-out /dev/full" 1 "/dev/full: No space left on device" "$spamctl" run "$hello" --console-in '' --console-out /dev/full
to_full "run stdout unwritable" 1 "<stdout>: No space left on device" "$spamctl" run --raw markers.bin --load-at 0x1000
expect "run -o the input" 2 "would overwrite the input" "$spamctl" run --raw markers.bin --load-at 0x1000 -o markers.bin
expect "run --memory 0" 2 "bad value for --memory: '0'" "$spamctl" run --raw markers.bin --load-at 0x1000 --memory 0
expect "run --memory 513" 2 "bad value for --memory: '513'" "$spamctl" run --raw markers.bin --load-at 0x1000 --memory 513
# (decimal, as --tcache-mb and --tcache-after: a leading 0 is not octal)
expect "run --memory 0x10" 2 "bad value for --memory: '0x10'" "$spamctl" run --raw markers.bin --load-at 0x1000 --memory 0x10
expect "run --memory 08" 0 "" "$spamctl" run --raw markers.bin --load-at 0x1000 --memory 08
expect "run --tcache-mb 0" 2 "bad value for --tcache-mb: '0'" "$spamctl" run --raw markers.bin --load-at 0x1000 --tcache-mb 0
expect "run --tcache-mb 4097" 2 "bad value for --tcache-mb: '4097'" "$spamctl" run --raw markers.bin --load-at 0x1000 --tcache-mb 4097
expect "run --tcache-mb 0x10" 2 "bad value for --tcache-mb: '0x10'" "$spamctl" run --raw markers.bin --load-at 0x1000 --tcache-mb 0x10
expect "run --tcache-after 0" 2 "bad value for --tcache-after: '0'" "$spamctl" run --raw markers.bin --load-at 0x1000 --tcache-after 0
expect "run --tcache-after 256" 2 "bad value for --tcache-after: '256'" "$spamctl" run --raw markers.bin --load-at 0x1000 --tcache-after 256
expect "run --max-cycles -5" 2 "bad value for --max-cycles: '-5'" "$spamctl" run --raw markers.bin --load-at 0x1000 --max-cycles -5
expect "run --max-cycles 10^23" 2 "bad value for --max-cycles" "$spamctl" run --raw markers.bin --load-at 0x1000 --max-cycles 99999999999999999999999
expect "run --max-cycles 0" 2 "--max-cycles 0 would not run at all" "$spamctl" run --raw markers.bin --load-at 0x1000 --max-cycles 0
expect "run --load-at 2^32" 2 "bad value for --load-at" "$spamctl" run --raw markers.bin --load-at 0x100000000
expect "run --load-at beyond memory" 1 "do not fit in 16 MB of memory" "$spamctl" run --raw markers.bin --load-at 0xFFFFFF00
expect "run --set r16=1" 2 "bad value for --set: 'r16=1'" "$spamctl" run --raw markers.bin --load-at 0x1000 --set r16=1
expect "run --dump-mem 0:2^32-1" 2 "outside memory" "$spamctl" run --raw markers.bin --load-at 0x1000 --dump-mem 0:0xFFFFFFFF
expect "run --drain-every 0" 2 "bad value for --drain-every: '0'" "$spamctl" run --raw markers.bin --load-at 0x1000 --drain-every 0
expect "run --net-rate 1e300" 2 "bad value for --net-rate" "$spamctl" run --raw markers.bin --load-at 0x1000 --net-rate 1e300
expect "run --net-rate nan" 2 "bad value for --net-rate" "$spamctl" run --raw markers.bin --load-at 0x1000 --net-rate nan
expect "run --net-size 10:20" 2 "bad value for --net-size" "$spamctl" run --raw markers.bin --load-at 0x1000 --net-size 10:20
expect "run --seed -1" 2 "bad value for --seed" "$spamctl" run --raw markers.bin --load-at 0x1000 --seed -1
expect "run --spam-priv root" 2 "bad value for --spam-priv" "$spamctl" run --raw markers.bin --load-at 0x1000 --spam-priv root
expect "run --drain=sideways" 2 "bad value for --drain" "$spamctl" run --raw markers.bin --load-at 0x1000 --drain=sideways

# ---- spamctl demo (each failing case stops before or at the first clock tick)
expect "demo --image missing" 1 "nothere.bin: No such file or directory" "$spamctl" demo --image nothere.bin -o d.spam
expect "demo --image empty" 1 "empty: not the bundled guest kernel" "$spamctl" demo --image empty -o d.spam
expect "demo --image random" 1 "random: not the bundled guest kernel" "$spamctl" demo --image random -o d.spam
expect "demo --image truncated" 1 "trunc.kernel: the guest never reached its first clock tick" "$spamctl" demo --image trunc.kernel -o d.spam --duration 1
expect "demo --image bit-flipped" 1 "flip.kernel: the guest never reached its first clock tick" "$spamctl" demo --image flip.kernel -o d.spam --duration 1
expect "demo --image a directory" 1 "adir: Is a directory" "$spamctl" demo --image adir -o d.spam
expect "demo -o unwritable" 1 "$nodir: No such file or directory" "$spamctl" demo --os ours -o $nodir --duration 0.5
expect "demo -o the image" 2 "would overwrite the input trunc.kernel .--image." "$spamctl" demo --image trunc.kernel -o trunc.kernel
expect "demo --duration 0" 2 "bad value for --duration: '0'" "$spamctl" demo --duration 0
expect "demo --duration 1e9" 2 "bad value for --duration: '1e9'" "$spamctl" demo --duration 1e9
expect "demo --duration nan" 2 "bad value for --duration: 'nan'" "$spamctl" demo --duration nan
expect "demo --net-rate -3" 2 "bad value for --net-rate: '-3'" "$spamctl" demo --net-rate -3
expect "demo --seed 10^23" 2 "bad value for --seed" "$spamctl" demo --seed 99999999999999999999999
expect "demo --net-size 2000:10" 2 "bad value for --net-size" "$spamctl" demo --net-size 2000:10

# ---- vasm
expect "vasm missing file" 1 "vasm: nothere.s: No such file or directory" "$vasm" -o x.o nothere.s
expect "vasm empty file (a valid empty program)" 0 "" "$vasm" -o x.o empty
expect "vasm random bytes" 1 "^random:[0-9]+: " "$vasm" -o x.o random
expect "vasm truncated source" 1 "^trunc.s:2: " "$vasm" -o x.o trunc.s
expect "vasm bit-flipped source" 1 "^flip.s:1: junk after instruction name" "$vasm" -o x.o flip.s
expect "vasm a directory" 1 "vasm: adir: Is a directory" "$vasm" -o x.o adir
expect "vasm -o unwritable" 1 "$nodir: cannot open for writing: No such file or directory" "$vasm" -o $nodir ok.s
expect "vasm --raw -o /dev/full" 1 "/dev/full: write error: No space left on device" "$vasm" --raw -o /dev/full ok.s
to_full "vasm --listing stdout unwritable" 1 "<stdout>: No space left on device" "$vasm" --listing -o x.o ok.s
expect "vasm -o the input" 2 "would overwrite the input" "$vasm" -o ok.s ok.s
expect "vasm --base 2^32" 2 "bad address '0x100000000'" "$vasm" --base 0x100000000 -o x.o ok.s
expect "vasm --base -1" 2 "bad address '-1'" "$vasm" --base -1 -o x.o ok.s
python3 -c "print('\t.space 0x7fffffff')" >huge.s
expect "vasm .space 2 GB" 1 "^huge.s:1: " "$vasm" -o x.o huge.s

# ---- vdis
expect "vdis missing file" 1 "vdis: nothere.elf: No such file or directory" "$vdis" nothere.elf
expect "vdis empty file" 1 "empty: not an ELF file" "$vdis" empty
expect "vdis random bytes" 1 "random: not an ELF file" "$vdis" random
expect "vdis random bytes --raw (any bytes disassemble)" 0 "" "$vdis" --raw --base 0 random
expect "vdis truncated ELF" 1 "trunc.elf: " "$vdis" trunc.elf
expect "vdis bit-flipped ELF" 1 "flip.elf: .*(machine|VAX)" "$vdis" flip.elf
expect "vdis a directory" 1 "vdis: adir: Is a directory" "$vdis" adir
to_full "vdis stdout unwritable" 1 "vdis: <stdout>: No space left on device" "$vdis" ok.elf
expect "vdis --base 2^32" 2 "vdis: bad number '0x100000000'" "$vdis" --raw --base 0x100000000 ok.elf
expect "vdis --base -1" 2 "vdis: bad number '-1'" "$vdis" --raw --base -1 ok.elf

# ---- uasm
expect "uasm missing file" 1 "nothere.mic:0: cannot read: No such file or directory" "$uasm" nothere.mic
expect "uasm empty file (an empty control store)" 0 "" "$uasm" empty
expect "uasm random bytes" 1 "^random:[0-9]+: " "$uasm" random
expect "uasm truncated source" 1 "^trunc.mic:[0-9]+: undefined label" "$uasm" trunc.mic
expect "uasm bit-flipped source" 1 "^flip.mic:[0-9]+: " "$uasm" flip.mic
expect "uasm a directory" 1 "adir:0: cannot read: Is a directory" "$uasm" adir
expect "uasm -o unwritable" 1 "uasm: $nodir: No such file or directory" "$uasm" -o $nodir all.mic
expect "uasm -o /dev/full" 1 "uasm: /dev/full: No space left on device" "$uasm" -o /dev/full all.mic
expect "uasm --listing unwritable" 1 "uasm: $nodir: No such file or directory" "$uasm" --listing $nodir all.mic
to_full "uasm --labels stdout unwritable" 1 "uasm: <stdout>: No space left on device" "$uasm" --labels all.mic
expect "uasm -o the input" 2 "would overwrite the input" "$uasm" -o all.mic all.mic
expect "uasm --emit-c 1x" 2 "not a C identifier" "$uasm" --emit-c 1x -o x.c all.mic
expect "uasm --emit-c without -o" 2 "usage" "$uasm" --emit-c sym all.mic

echo "bad input (every command): $pass passed, $fail failed"
[ $fail -eq 0 ]
