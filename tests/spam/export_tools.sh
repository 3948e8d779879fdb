#!/bin/bash
# Exports checked by the tools that read them (suite 'diff'; the tools are
# required: apt-get install babeltrace2 python3-lttnganalyses):
#  - raw -> CTF -> babeltrace2: event count equals 'spamctl stat';
#    compressed input gives the same CTF;
#  - raw -> CTF (--lttng) -> lttng-irqstats: count, min, avg and max of the
#    network and clock interrupts equal 'spamctl hist';
#  - Chrome JSON parses, and its slices match hist's counts.
#   export_tools.sh SPAMCTL GEN_TRACE WORKDIR
set -uo pipefail
spamctl=$(realpath "$1") gen=$(realpath "$2") work=$3
for tool in babeltrace2 lttng-irqstats python3; do
    command -v $tool >/dev/null || { echo "FAIL: $tool is missing (apt-get install babeltrace2 python3-lttnganalyses)"; exit 1; }
done
mkdir -p "$work" && cd "$work" || exit 1
rm -rf ctf ctfz lttng
fail=0
bad() { echo "FAIL: $*"; fail=1; }

"$gen" --seed 31 --ms 20000 t.trace || exit 1
"$gen" --seed 32 --ms 3000 --drops --cut d.trace || exit 1
for tr in t d; do
    rm -rf ctf_$tr
    "$spamctl" export --ctf ctf_$tr $tr.trace 2>/dev/null || bad "export $tr"
    n=$(babeltrace2 ctf_$tr 2>/dev/null | grep -c ' spam:')
    s=$("$spamctl" stat --json $tr.trace | python3 -c 'import json,sys; print(json.load(sys.stdin)["events"])')
    [ "$n" = "$s" ] && [ "$n" -gt 0 ] || bad "$tr: babeltrace2 saw $n events, stat $s"
done
"$spamctl" compress t.trace t.z && "$spamctl" export --ctf ctfz t.z 2>/dev/null &&
    cmp -s ctf_t/stream_0 ctfz/stream_0 || bad "CTF from the compressed trace differs"
# trimming works (packets carry timestamp_begin/end)
nt=$(babeltrace2 ctf_t --begin=00:00:05 --end=00:00:06 2>/dev/null | grep -c ' spam:')
nj=$("$spamctl" decode --json --from 5000000 --to 6000000 t.trace | wc -l)
[ "$nt" = "$nj" ] || bad "babeltrace2 --begin/--end: $nt events, decode --from/--to $nj"

"$spamctl" export --ctf lttng --lttng t.trace 2>/dev/null || bad "export --lttng"
lttng-irqstats --skip-validation --no-progress --stats lttng >irq.txt 2>&1 || bad "lttng-irqstats: $(cat irq.txt)"
for vec in 0x120 0xC0; do
    want=$("$spamctl" hist --json --event int:$vec t.trace | python3 -c '
import json, sys
g = json.load(sys.stdin)["groups"][0]["inclusive"]
print("%d %.3f %.3f %.3f" % (g["count"], g["min"], g["mean"], g["max"]))')
    got=$(awk -v irq=$((vec)) '$1 == irq":" { print $(NF-5), $(NF-4), $(NF-3), $(NF-2) }' irq.txt)
    [ "$got" = "$want" ] || bad "irq $vec: lttng-irqstats '$got', hist '$want'"
    echo "irq $vec: lttng-irqstats count/min/avg/max = $got; spamctl hist = $want"
done

"$spamctl" export --chrome t.json t.trace || bad "export --chrome"
python3 - t.json <<'PY' || bad "chrome json"
import json, sys
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"]
x = [e for e in ev if e["ph"] == "X"]
assert x and all("dur" in e and "ts" in e and "pid" in e and "tid" in e for e in x)
assert any(e["ph"] == "i" for e in ev) and any(e["ph"] == "M" for e in ev)
# slices on one track nest properly (Perfetto requires it)
from collections import defaultdict
tracks = defaultdict(list)
for e in x:
    tracks[e["tid"]].append((e["ts"], e["ts"] + e["dur"]))
for t, s in tracks.items():
    s.sort(key=lambda v: (v[0], -v[1]))
    stack = []
    for a, b in s:
        while stack and stack[-1] <= a:
            stack.pop()
        assert not stack or b <= stack[-1], (t, a, b, stack[-1])
        stack.append(b)
print("chrome: %d slices on %d tracks" % (len(x), len(tracks)))
PY
[ $fail -eq 0 ] && echo "export through babeltrace2 / lttng-irqstats / json: all checks passed"
exit $fail
