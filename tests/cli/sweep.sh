#!/bin/bash
# Issue 32: a sweep on GNU parallel, merged.  Four seeds of the bundled
# guest's demo run as a job array (README.md's recipe, with --os ours and
# a short --duration); `spamctl hist --merge` over the four traces, and
# over the four JSON results, must equal the histogram of the
# concatenated events, computed here from `spamctl decode --csv` of each
# trace: the same count, sum, min and max, bucket for bucket (the
# log-linear buckets of spam/spam_hist.h, inclusive and exclusive), the
# same percentiles, the same 0.1 ms bins.
#   sweep.sh SPAMCTL WORKDIR
set -uo pipefail
spamctl=$(realpath "$1"); work=$2
rm -rf "$work"; mkdir -p "$work"; cd "$work" || exit 1
fail=0
bad() { echo "FAIL: $*"; fail=1; }
command -v parallel >/dev/null || { echo "FAIL: GNU parallel is not installed (Debian's parallel)"; exit 1; }
parallel --will-cite --halt now,fail=1 -j 2 \
    "$spamctl" demo --os ours --duration 1 --seed {} --json out-{}.json -o run-{}.spam ::: 1 2 3 4 \
    >parallel.out 2>&1 || bad "the sweep: $(tail -5 parallel.out)"
for s in 1 2 3 4; do [ -s run-$s.spam ] && [ -s out-$s.json ] || bad "seed $s: no trace or JSON"; done
"$spamctl" hist --merge --event int:0xB0 --json run-*.spam >m-traces.json || bad "hist --merge of the traces"
"$spamctl" hist --merge --event int:0xB0 --json out-*.json >m-results.json || bad "hist --merge of the JSON"
cmp -s m-traces.json m-results.json || bad "merging the traces and merging the results differ"
"$spamctl" hist --merge --event int:0xB0 --linear 100:50 run-*.spam >m-linear.txt || bad "hist --merge --linear"
for s in 1 2 3 4; do
    "$spamctl" decode --csv --class rei run-$s.spam >rei-$s.csv || bad "decode seed $s"
done
python3 - <<'PY' || fail=1
import csv, json, re, sys

BUCKETS = 256 + (40 - 8) * 128


def index(v):  # spam/spam_hist.h's spam_hist_index
    sh = (v | 0xFF).bit_length() - 1 - 7
    return min(sh * 128 + (v >> sh), BUCKETS - 1)


def lo(i):
    if i < 256:
        return i
    k = i - 256
    return (k % 128 + 128) << (k // 128 + 8 - 7)


def expect(values):
    b = {}
    for v in values:
        b[lo(index(v))] = b.get(lo(index(v)), 0) + 1
    s = sorted(values)
    pct = {}
    for name, p in (("p50", 50), ("p90", 90), ("p99", 99), ("p99_9", 99.9)):
        t = p / 100 * len(s)
        rank = max(1, -(-t // 1) if t != int(t) else int(t))
        v = s[int(rank) - 1]
        hi = lo(index(v) + 1) - 1 if index(v) + 1 < BUCKETS else 2**64 - 1
        pct[name] = min(max(hi, s[0]), s[-1])
    return {"count": len(s), "sum": sum(s), "min": s[0], "max": s[-1],
            "buckets": sorted([k, n] for k, n in b.items()), **pct}


incl, excl, per_seed = [], [], []
for seed in (1, 2, 3, 4):
    n = 0
    for r in csv.DictReader(open(f"rei-{seed}.csv")):
        if r["open_event"] == str(0x10B0):
            incl.append(int(r["service_us"]))
            excl.append(int(r["exclusive_us"]))
            n += 1
    per_seed.append(n)
fails = []
if len(set(per_seed)) < 2:
    fails.append(f"the seeds gave the same runs: {per_seed}")
g = json.load(open("m-traces.json"))["groups"]
if len(g) != 1 or g[0]["key"] != 0x10B0:
    fails.append(f"groups: {[x.get('key') for x in g]}")
else:
    for kind, vals in (("inclusive", incl), ("exclusive", excl)):
        want, got = expect(vals), g[0][kind]
        for k, v in want.items():
            if got.get(k) != v:
                fails.append(f"{kind} {k}: merge {got.get(k)!r:.200}, concatenated events {v!r:.200}")
lin = [0] * 51
for v in incl:
    lin[min(v // 100, 50)] += 1
got = [int(n) for _, n in re.findall(r"^bin (\d+) (\d+)$", open("m-linear.txt").read(), re.M)]
if got != lin:
    fails.append(f"linear bins: merge {got}, concatenated events {lin}")
for f in fails:
    print("FAIL: " + f)
print(f"sweep: seeds 1-4, {per_seed} IPL 12 service times, {len(incl)} in all: the merge equals "
      "the histogram of the concatenated events" if not fails else "")
sys.exit(1 if fails else 0)
PY
[ $fail -eq 0 ] && echo "sweep: all checks passed"
exit $fail
