#!/bin/bash
# Issue 33, "nothing lost, round 2": one regression test per defect (D1-D6),
# each failing on the tools as they were and passing now.  Outputs never
# overwrite attached media or scripts; nothing hangs on a FIFO; a crafted
# disk cannot make names extract use memory out of proportion; a host write
# failure on an image is reported; install.py's errors; messages.
#
#   nothing_lost2.sh SPAMCTL VASM VDIS UASM SRCDIR DISTDIR
set -uo pipefail
spamctl=$(realpath "$1") vasm=$(realpath "$2") vdis=$(realpath "$3") uasm=$(realpath "$4")
src=$(realpath "$5") dist=$(realpath "$6")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
. "$src/tests/cli/check_lib.sh"

printf '\021\376' >loop.bin # BRB .
RUN="$spamctl run --raw loop.bin --load-at 0x1000 --max-cycles 1000"

# ---- D1: an output never overwrites an attached medium or a script
# the issue's 16 combinations: -o, --console-out, --dump-state, --pcap
# against rp0, rp0:ro, tu0:ro and a console script; each file must stay
truncate -s 174423040 D.dsk
printf '\0\0\0\0' >T.tap
printf 'expect x\n' >c.script
for o in -o --console-out --dump-state --pcap; do
    for a in rp0=D.dsk rp0:ro=D.dsk tu0:ro=T.tap script; do
        case $a in
        script) args=(--console-script c.script) f=c.script ;;
        *) args=(--attach "$a") f=${a#*=} ;;
        esac
        cp "$f" before
        $RUN "${args[@]}" $o "$f" >/dev/null 2>err.txt; st=$?
        rc_msg "D1 $o onto $a" 2 "would overwrite the (attached medium|input) $f"
        check "D1 $o onto $a leaves $f" cmp -s before "$f"
    done
done
# through a symbolic link and a hard link, and DZ scripts
ln -s D.dsk sym.dsk
ln D.dsk hard.dsk
printf 'loop\nthink 1\nrepeat\n' >u.script
for t in sym.dsk hard.dsk; do
    for o in -o --console-out --dump-state --pcap --dz-report --dz-log; do
        if [ $o = --dz-log ]; then a=(--dz-log "3=$t"); else a=($o "$t"); fi
        $RUN --attach rp0:ro=D.dsk "${a[@]}" >/dev/null 2>err.txt; st=$?
        rc_msg "D1 $o through $t" 2 "$o.* $t would overwrite the attached medium D.dsk"
    done
done
for o in -o --console-out --dump-state --pcap --dz-report --dz-log; do
    if [ $o = --dz-log ]; then a=(--dz-log 3=u.script); else a=($o u.script); fi
    $RUN --dz-script 1=u.script "${a[@]}" >/dev/null 2>err.txt; st=$?
    rc_msg "D1 $o onto a DZ script" 2 "would overwrite the input u.script .--dz-script 1."
done
check "D1 the disk survived" [ "$(stat -c %s D.dsk)" = 174423040 ]
# one writable image on two units (by name, through a link); read-only twice is fine
$RUN --attach rp0=D.dsk --attach rp1=hard.dsk >/dev/null 2>err.txt; st=$?
rc_msg "D1 a writable image on two units" 2 "same image: a writable image is attached to one unit only"
$RUN --attach rp0:ro=D.dsk --attach rp2=sym.dsk >/dev/null 2>err.txt; st=$?
rc_msg "D1 a writable image also attached read-only" 2 "same image"
$RUN --attach rp0:ro=D.dsk --attach rp1:ro=hard.dsk >/dev/null 2>err.txt; st=$?
check "D1 a read-only image on two units runs (exit $st)" [ $st -eq 0 ]

# ---- D2: a FIFO never hangs a command: media, names disks, traces,
# whole-file inputs (opened without blocking, then the type checked)
mkfifo fifo
to() { timeout 20 "$@" </dev/null >/dev/null 2>err.txt; st=$?; }
to "$spamctl" run --boot rp0 --attach rp0:ro=fifo
rc_msg "D2 --attach rp0:ro=FIFO" 1 "fifo: not a regular file .a FIFO."
to "$spamctl" run --raw loop.bin --load-at 0x1000 --attach tu0=fifo
rc_msg "D2 --attach tu0=FIFO" 1 "fifo: not a regular file .a FIFO."
to "$spamctl" names extract --disk fifo -o n.txt
rc_msg "D2 names extract --disk FIFO" 1 "fifo: not a regular file .a FIFO."
for c in stat decode hist compress decompress "export --chrome x.json"; do
    to "$spamctl" $c fifo
    rc_msg "D2 $c of a FIFO" 1 "fifo: not a regular file .a FIFO.; a pipe is read from stdin"
done
# whole-file inputs read a FIFO without a writer as empty, at once
to "$spamctl" run --raw fifo --load-at 0x1000 --max-cycles 1000
check "D2 run --raw FIFO ends (exit $st)" [ $st -ne 124 ]
to "$spamctl" run --raw loop.bin --load-at 0x1000 --microcode fifo
rc_msg "D2 run --microcode FIFO" 1 "fifo: empty file"
to "$spamctl" run --raw loop.bin --load-at 0x1000 --max-cycles 1000 --console-script fifo
check "D2 --console-script FIFO ends (exit $st)" [ $st -ne 124 ]
to "$spamctl" names extract --kernel fifo -o n.txt
check "D2 names extract --kernel FIFO ends (exit $st)" [ $st -eq 1 ]
to "$vasm" -o x.o fifo
check "D2 vasm FIFO ends (exit $st)" [ $st -ne 124 ]
to "$vdis" fifo
check "D2 vdis FIFO ends (exit $st)" [ $st -ne 124 ]
to "$uasm" fifo
check "D2 uasm FIFO ends (exit $st)" [ $st -ne 124 ]

# ---- D3: a crafted disk (root directory 16 MB, an entry of /etc pointing
# back at the root) makes names extract fail at once, in little memory
python3 - "$dist/miniroot.gz" <<'EOF'
import gzip, struct, sys
b = bytearray(gzip.open(sys.argv[1]).read())
sb = 8192
u32 = lambda o: struct.unpack_from("<I", b, o)[0]
iblkno, fsize, frag, inopb = u32(sb + 16), u32(sb + 52), u32(sb + 56), u32(sb + 120)
def dinode(ino):  # cylinder group 0
    return (iblkno + ino // inopb * frag) * fsize + ino % inopb * 128
def entries(ino):
    at = u32(dinode(ino) + 40) * fsize  # the directory's first block
    o = 0
    while o < 512:
        e_ino, reclen, namlen = struct.unpack_from("<IHH", b, at + o)
        yield at + o, e_ino, bytes(b[at + o + 8:at + o + 8 + namlen])
        o += reclen
etc = next(i for _, i, n in entries(2) if n == b"etc")
victim = next(at for at, i, n in entries(etc) if n not in (b".", b".."))
struct.pack_into("<I", b, victim, 2)           # /etc/X is the root again
open("loop.img", "wb").write(b)
struct.pack_into("<I", b, dinode(2) + 8, 16 << 20)  # the root: 16 MB
open("crafted.img", "wb").write(b)
EOF
for img in loop.img crafted.img; do
    python3 - "$spamctl" "$img" >rss.txt 2>err.txt <<'EOF'
import resource, subprocess, sys
p = subprocess.run([sys.argv[1], "names", "extract", "--disk", sys.argv[2], "-o", "n.txt"],
                   capture_output=True, text=True)
sys.stderr.write(p.stderr)
print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)
EOF
    read -r st rss <rss.txt
    want='a directory loop: /etc/.* is inode 2'
    [ $img = crafted.img ] && want='a directory larger than the file system'
    rc_msg "D3 names extract of $img" 1 "$want"
    check "D3 names extract of $img: peak RSS $rss MB (want under 128)" [ "$rss" -lt 128 ]
done

# ---- D4: a host write failure on a disk or tape image is reported, the
# machine stopped cleanly, exit 1 (a file size limit stands for a full disk)
"$vasm" --raw --base 0x1000 -o mw.bin "$src/tests/io/media_write.s" || bad "D4 vasm"
: >E.dsk
: >E.tap
printf 'expect never printed\n' >never.script # cut short: no second line
(ulimit -f 1000; trap '' XFSZ; exec "$spamctl" run --raw mw.bin --load-at 0x1000 --attach rp0=E.dsk \
    --attach tu0=E.tap --max-cycles unlimited -o d4.spam --console-script never.script \
    >out.txt 2>err.txt); st=$?
rc_msg "D4 the disk image cannot grow" 1 "^spamctl run: E.dsk: File too large .rp0's image could not be written; the run was stopped.$"
check "D4 one line on stderr" [ "$(wc -l <err.txt)" -eq 1 ]
check "D4 the summary: $(head -1 out.txt)" grep -q '^halted: host write error on rp0 at PC' out.txt
"$spamctl" stat --json d4.spam >stat.json 2>err.txt
check "D4 the trace is complete" python3 -c "import json; assert json.load(open('stat.json'))['complete']"
: >E.tap
(ulimit -f 1; trap '' XFSZ; exec "$spamctl" run --raw mw.bin --load-at 0x1000 --attach rp0:ro=D.dsk \
    --attach tu0=E.tap --max-cycles unlimited --dump-state st.json >/dev/null 2>err.txt); st=$?
rc_msg "D4 the tape image cannot grow" 1 "^spamctl run: E.tap: File too large .tu0's image could not be written"
check "D4 the state says why" grep -q '"reason": "host write error on tu0"' st.json
"$spamctl" run --raw mw.bin --load-at 0x1000 --attach rp0=E.dsk --attach tu0=E.tap \
    --max-cycles unlimited >out.txt 2>err.txt; st=$?
check "D4 without a limit the program runs to its HALT (exit $st)" grep -q '^halted: HALT instruction' out.txt
check "D4 ... and wrote 400 tape marks" [ "$(stat -c %s E.tap)" = 1600 ]

# ---- D5: install.py's errors: one line, the file named, nothing left
inst=$src/vax/guest/bsd43/install.py
mkdir baddist
for f in stand.gz miniroot.gz rootdump.gz; do ln -s "$dist/$f" baddist/$f; done
printf '\377\376 not text\n' >baddist/SHA256SUMS
python3 "$inst" --dist baddist --spamctl "$spamctl" i1.dsk >/dev/null 2>err.txt; st=$?
rc_msg "D5 a SHA256SUMS that is not UTF-8" 1 "^install.py: baddist/SHA256SUMS: not a text file"
check "D5 ... in one line, no traceback" [ "$(wc -l <err.txt)" -eq 1 ]
check "D5 ... no lock left" [ ! -e i1.dsk.lock ]
python3 "$inst" --dist "$dist" --spamctl "$spamctl" nodir/i2.dsk >/dev/null 2>err.txt; st=$?
rc_msg "D5 a missing directory" 1 "nodir: no such directory"
check "D5 ... not made" [ ! -e nodir ]
python3 - "$inst" "$dist" "$spamctl" >/dev/null 2>err.txt <<'EOF'
import resource, signal, subprocess, sys
def limit():  # the disk is full after 1 MB
    resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 20, 1 << 20))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
p = subprocess.run([sys.executable, sys.argv[1], "--dist", sys.argv[2], "--spamctl", sys.argv[3],
                    "i3.dsk"], preexec_fn=limit, capture_output=True, text=True)
sys.stderr.write(p.stderr)
sys.exit(p.returncode)
EOF
st=$?
rc_msg "D5 a full disk names the file" 1 "^install.py: i3.dsk.work/dist.tap: File too large"
check "D5 ... nothing left: $(ls -d i3.dsk* 2>/dev/null | tr '\n' ' ')" [ -z "$(ls -d i3.dsk* 2>/dev/null)" ]
python3 "$inst" --dist "$dist" --spamctl /bin/false i4.dsk >/dev/null 2>err.txt; st=$?
rc_msg "D5 a failed step" 1 "^install.py: step copy: spamctl exit 1"
check "D5 ... no lock, no half-made disk left" [ ! -e i4.dsk.lock ] && [ ! -e i4.dsk.partial ]

# ---- D6: messages and strictness
truncate -s 174423040 Z.dsk
"$spamctl" run --boot rp0 --attach rp0=Z.dsk >/dev/null 2>err.txt; st=$?
rc_msg "D6 --boot rp0 of an empty disk" 1 "^spamctl run: --boot rp0: .*no 4.2BSD superblock"
check_not "D6 ... 'boot' once" grep -q -- '--boot boot' err.txt
"$spamctl" run --boot rp4 >/dev/null 2>err.txt; st=$?
rc_msg "D6 --boot rp4" 2 "rp4.*no such unit"
"$spamctl" run --boot rp1 --attach rp0=Z.dsk >/dev/null 2>err.txt; st=$?
rc_msg "D6 --boot rp1 with nothing on it" 1 "nothing is attached to rp1"
for esc in '\x' '\x4' '\q' 'a\'; do
    $RUN --console-in "$esc" >/dev/null 2>err.txt; st=$?
    rc_msg "D6 --console-in '$esc'" 2 "bad value for --console-in"
done
$RUN --console-in '\x41\r\n\t\\' >/dev/null 2>err.txt; st=$?
check "D6 --console-in with the documented escapes runs (exit $st)" [ $st -eq 0 ]
printf 'send \\x4\n' >x4.script
$RUN --console-script x4.script >/dev/null 2>err.txt; st=$?
rc_msg "D6 send \\x4" 1 'x4.script:1: bad escape at "\\x4"'
printf 'expect \\x41\nfr\001b\377z\n' >raw.script
$RUN --console-script raw.script >/dev/null 2>err.txt; st=$?
rc_msg "D6 an unknown command, escaped" 1 'raw.script:2: unknown command "fr\\x01b\\xFFz"'
check_not "D6 ... no raw control bytes in the message" grep -q $'\001' err.txt
for c in decode hist; do
    "$spamctl" $c --csv --json "$src/traces/demo.spam" >/dev/null 2>err.txt; st=$?
    rc_msg "D6 $c --csv --json" 2 "--csv and --json exclude each other"
done

echo "nothing lost 2: $pass passed, $fail failed"
[ $fail -eq 0 ]
