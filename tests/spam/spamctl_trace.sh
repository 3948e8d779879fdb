#!/bin/bash
# spamctl's trace commands on synthetic traces: the contract of stat,
# decode, hist, compress, decompress, export; stdin/stdout; bad input
# (clear "FILE: offset N: message", exit 1, results up to the damage).
#   spamctl_trace.sh SPAMCTL GEN_TRACE WORKDIR
set -uo pipefail
spamctl=$(realpath "$1") gen=$(realpath "$2") work=$3
mkdir -p "$work" && cd "$work" || exit 1
fail=0
bad() { echo "FAIL: $*"; fail=1; }
json() { python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }

"$gen" --seed 21 --ms 5000 t.trace || exit 1
"$gen" --seed 22 --ms 3000 --drops --cut d.trace || exit 1

# usage
"$spamctl" stat >/dev/null 2>&1; [ $? -eq 2 ] || bad "stat without a trace must exit 2"
for c in stat decode hist compress decompress export; do
    "$spamctl" $c --help | grep -q "^Usage: spamctl $c" || bad "$c --help"
    "$spamctl" $c --bogus t.trace >/dev/null 2>&1; [ $? -eq 2 ] || bad "$c --bogus must exit 2"
done
"$spamctl" hist --event nonsense t.trace >/dev/null 2>&1; [ $? -eq 2 ] || bad "hist --event nonsense"

# stat: text and JSON agree with decode
"$spamctl" stat t.trace >stat.txt || bad "stat exit"
grep -q "^records " stat.txt && grep -q "no warnings" stat.txt || bad "stat text: $(head -5 stat.txt)"
ev=$("$spamctl" stat --json t.trace | json 'd["events"]')
nd=$("$spamctl" decode --json t.trace | wc -l)
[ "$ev" = "$nd" ] || bad "stat events $ev != decode lines $nd"
"$spamctl" decode --json t.trace | python3 -c '
import json, sys
need = {"t_us", "icount", "class", "psl_hi", "ipl", "mode"}
per = {"interrupt": {"vector"}, "exception": {"vector"}, "chm": {"code", "chm_mode"},
       "ldpctx": {"pid", "uid", "major", "minor", "inode"}, "rei": set(), "marker": set()}
last = -1
for line in sys.stdin:
    o = json.loads(line)
    assert need <= o.keys() and per[o["class"]] <= o.keys(), o
    assert all(isinstance(o[k], int) for k in need - {"class"}), o
    assert o["t_us"] >= last, o
    last = o["t_us"]
' || bad "decode --json contract"
"$spamctl" decode --csv t.trace >t.csv && head -1 t.csv | grep -q '^index,t_us,icount,class' || bad "decode --csv header"
# filters
nclk=$("$spamctl" decode --json --event int:0xC0 t.trace | wc -l)
sclk=$("$spamctl" stat --json t.trace | json '[v["count"] for v in d["vectors"] if v["class"]=="interrupt" and v["vector"]==0xC0][0]')
[ "$nclk" = "$sclk" ] && [ "$nclk" -ge 499 ] || bad "clock interrupts: decode $nclk, stat $sclk"
"$spamctl" decode --json --pid 101 t.trace | json 'd["pid"]' 2>/dev/null | head -1 >/dev/null
npid=$("$spamctl" decode --json --pid 101 t.trace | grep -vc '"pid":101,')
[ "$npid" = 0 ] || bad "--pid filter let $npid other events through"
nwin=$("$spamctl" decode --json --from 1000000 --to 2000000 t.trace |
       python3 -c 'import json,sys; print(all(1000000<=json.loads(l)["t_us"]<=2000000 for l in sys.stdin))')
[ "$nwin" = True ] || bad "time window"
nipl=$("$spamctl" decode --json --ipl 21 --class int t.trace | grep -vc '"ipl":21,')
[ "$nipl" = 0 ] || bad "--ipl filter"

# hist
"$spamctl" hist t.trace >h.txt || bad "hist exit"
grep -q "interrupt 0x120 (device 0x120) *inclusive" h.txt || bad "hist text: $(head -3 h.txt)"
"$spamctl" hist --event int:0xB0 t.trace | grep -q "distribution" || bad "hist --event bars"
"$spamctl" hist --json --event int:0x120 t.trace |
    json 'd["groups"][0]["exclusive"]["max"] <= 500 and d["groups"][0]["inclusive"]["min"] >= 50' |
    grep -q True || bad "hist json"
"$spamctl" hist --csv --by ipl t.trace >h.csv && head -1 h.csv | grep -q '^group,kind,count' || bad "hist --csv"
"$spamctl" hist --syscalls t.trace | grep -q "chmk 4" || bad "hist --syscalls"
"$spamctl" hist --cpu t.trace | grep -q "^100 " || bad "hist --cpu"
"$spamctl" hist --svg h.svg t.trace >/dev/null && head -c 4 h.svg | grep -q '<svg' || bad "hist --svg"
# the paper's Figure 4: linear bins as percent of events, one bar a bin,
# bar heights in the proportions of the --linear counts
"$spamctl" hist --event int:0xB0 --linear 20:30 --svg f4.svg t.trace >f4.txt || bad "hist --linear --svg"
python3 - f4.svg f4.txt <<'PY' || bad "hist --linear --svg: the bars"
import sys, xml.etree.ElementTree as E
ns = "{http://www.w3.org/2000/svg}"
bars = [r for r in E.parse(sys.argv[1]).iter(ns + "rect") if r.get("class") == "bin"]
counts = [int(l.split()[2]) for l in open(sys.argv[2]) if l.startswith("bin ")]
top = max(counts)
assert len(bars) == len(counts) == 31, (len(bars), len(counts))
assert sum(counts) > 100 and sum(1 for c in counts if c) > 3, counts
for b, c in zip(bars, counts):
    assert abs(int(b.get("height")) - 160 * c / top) <= 0.5, (b.get("height"), c, top)
# every bar's count is written above it, and the axis has round ticks
texts = [t.text for t in E.parse(sys.argv[1]).iter(ns + "text")]
labels = [t for t in E.parse(sys.argv[1]).iter(ns + "text") if t.get("font-size") == "9"]
assert sorted(int(t.text) for t in labels) == sorted(c for c in counts if c), (labels, counts)
ticks = [t for t in texts if t and t.endswith("%")]
assert len(ticks) >= 2 and all(float(t[:-1]) > 0 for t in ticks), ticks
PY

# compress / decompress, stdin and stdout
"$spamctl" compress t.trace t.z || bad "compress exit"
"$spamctl" decompress t.z t.out && cmp -s t.trace t.out || bad "round trip"
"$spamctl" compress - - <d.trace | "$spamctl" decompress - - >d.out && cmp -s d.trace d.out ||
    bad "round trip through pipes"
a=$("$spamctl" stat --json t.trace | json 'd["events"], d["span_us"], d["classes"]')
b=$("$spamctl" stat --json t.z | json 'd["events"], d["span_us"], d["classes"]')
[ "$a" = "$b" ] || bad "stat differs on the compressed trace"
cat t.z | "$spamctl" hist --json - | cmp -s - <("$spamctl" hist --json t.trace) || bad "hist on compressed stdin"

# drops and a cut-off pair are reported
"$spamctl" stat d.trace >d.txt || bad "stat d exit"
grep -q "ambiguous gap" d.txt && grep -q "LDPCTX cut off" d.txt && grep -q "re-enabled" d.txt ||
    bad "stat does not report the damage: $(tail -8 d.txt)"
[ "$("$spamctl" stat --json d.trace | json 'd["dropped"] > 0')" = True ] || bad "drops from the header"

# bad input: FILE: offset N: message, exit 1
printf 'NOTATRACE_______________' >magic.trace
"$spamctl" stat magic.trace >/dev/null 2>err.txt; rc=$?
[ $rc -eq 1 ] && grep -q "magic.trace: offset 0: .*magic" err.txt || bad "bad magic: rc $rc $(cat err.txt)"
{ head -c 8 t.trace; printf '\x07\x00'; tail -c +11 t.trace; } >ver.trace
"$spamctl" decode ver.trace >/dev/null 2>err.txt; rc=$?
[ $rc -eq 1 ] && grep -q "ver.trace: offset 8: unknown trace version 7" err.txt || bad "version: $(cat err.txt)"
head -c 100 t.trace >short.trace
"$spamctl" hist short.trace >/dev/null 2>err.txt; rc=$?
[ $rc -eq 1 ] && grep -q "short.trace: offset 100: truncated header" err.txt || bad "short header: $(cat err.txt)"
{ cat t.trace; printf 'abc'; } >torn.trace
size=$(stat -c %s t.trace)
"$spamctl" stat --json torn.trace >torn.json 2>err.txt; rc=$?
[ $rc -eq 1 ] && grep -q "torn.trace: offset $size: truncated last record" err.txt &&
    grep -q "skipped 0 records and 3 bytes" err.txt || bad "torn record: rc $rc $(cat err.txt)"
[ "$(json 'd["events"]' <torn.json)" = "$ev" ] || bad "torn record: results up to the damage"
"$spamctl" compress torn.trace torn.z 2>/dev/null
"$spamctl" decompress torn.z torn.out 2>/dev/null; cmp -s torn.trace torn.out || bad "torn round trip"
# a corrupt block: reported with its offset, skipped, the rest kept
"$gen" --seed 23 --ms 60000 big.trace && "$spamctl" compress big.trace big.z || bad "big trace"
python3 - <<'PY'
import struct
z = bytearray(open("big.z", "rb").read())
h = struct.unpack_from("<I", z, 12)[0]
off = 20 + h
z[off + 20 + 100] ^= 0xFF
open("crc.z", "wb").write(z)
open("crc.off", "w").write(str(off))
PY
"$spamctl" stat --json crc.z >crc.json 2>err.txt; rc=$?
[ $rc -eq 1 ] && grep -q "crc.z: offset $(cat crc.off): CRC mismatch in block (65536 records): skipped" err.txt &&
    grep -q "skipped 65536 records" err.txt || bad "corrupt block: rc $rc $(cat err.txt)"
[ "$(json 'd["records"]' <crc.json)" -gt 0 ] || bad "corrupt block: no results after it"
"$spamctl" decompress crc.z crc.out 2>/dev/null; [ $? -eq 1 ] || bad "decompress of a corrupt block must exit 1"
head -c 100000 /dev/urandom >rand.trace
"$spamctl" stat rand.trace >/dev/null 2>err.txt; rc=$?
[ $rc -eq 1 ] && grep -q "rand.trace: offset 0:" err.txt || bad "random bytes: $(cat err.txt)"
"$spamctl" stat /nonexistent/x.trace >/dev/null 2>&1; [ $? -eq 1 ] || bad "missing file"

# real traces of the emulated machine (traces/): byte-exact round trip, and
# the same analysis compressed as raw; a compressed file of another
# version is rejected naming the version
traces=$(dirname "$(realpath "$0")")/../../traces
for f in "$traces"/*.spam; do
    b=$(basename "$f" .spam)
    "$spamctl" compress "$f" "real-$b.z" && "$spamctl" decompress "real-$b.z" "real-$b.out" &&
        cmp -s "$f" "real-$b.out" || bad "real trace $b: round trip"
    [ "$("$spamctl" hist --json "$f")" = "$("$spamctl" hist --json "real-$b.z")" ] || bad "real trace $b: hist differs"
    [ "$(stat -c %s "real-$b.z")" -lt "$(($(gzip -9c "$f" | wc -c) / 3))" ] || bad "real trace $b: not 3x smaller than gzip -9"
done
f=$(ls "$traces"/*.spam | head -1)
{ head -c 8 "real-$(basename "$f" .spam).z"; printf '\x01\x00'; tail -c +11 "real-$(basename "$f" .spam).z"; } >zver.z
"$spamctl" stat zver.z >/dev/null 2>err.txt; rc=$?
[ $rc -eq 1 ] && grep -q "zver.z: offset 8: unknown compressed-trace version 1 (this reader knows version 2)" err.txt ||
    bad "compressed version 1: rc $rc $(cat err.txt)"

[ $fail -eq 0 ] && echo "spamctl trace commands: all checks passed"
exit $fail
