#!/bin/bash
# spamctl's contract: `demo --os ours` boots the bundled guest with SPAM
# tracing and a network load, writes the trace (readable by `spamctl
# stat`), the JSON of every figure (its "hist" merged by `hist --merge`
# equals `hist` of the trace) and Figure 4 as SVG, and prints the IPL 12
# histogram, the event counts, the processes with their CPU beside the
# guest's own tick counts, and SPAM's cost; without the 4.3BSD
# distribution `demo` says where to get it and runs the bundled guest;
# options of one system are usage errors with the other (status 2).
set -uo pipefail
spamctl=$(realpath "$1")
fail=0
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
bad() { echo "FAIL: $*"; fail=1; }
out=$(cd "$dir" && "$spamctl" demo --os ours --duration 2 --json d.json --svg d.svg 2>&1); rc=$?
[ $rc -eq 0 ] || bad "demo exit $rc: $out"
grep -q "IPL 12 network protocol service time" <<<"$out" || bad "no IPL 12 histogram: $out"
grep -Eq "inclusive n=[1-9][0-9]* .*p50 [0-9]+ .*p99" <<<"$out" || bad "no percentiles: $out"
grep -Eq "^ +[0-9]+- +[0-9]+ us +[0-9]+ #" <<<"$out" || bad "no bars"
for cls in interrupt exception chm ldpctx rei marker; do
    grep -Eq "^  $cls +[1-9][0-9]*$" <<<"$out" || bad "no count for $cls"
done
grep -Eq "^ +5 +1 +routed +0/0 +5 +[1-9][0-9]* +[0-9.]+ +[0-9.]+ +[0-9]+ \([0-9]+\)$" <<<"$out" ||
    bad "context switches and CPU of routed (pid 5, uid 1, inode 5): $out"
grep -Eq "^  idle +[0-9]+ +[0-9.]+%$" <<<"$out" || bad "where the time went: no idle"
grep -Eq "^perturbation \(counted by the machine\): [1-9][0-9]* of [1-9][0-9]* microcycles \(0\.[0-9]+%\)" <<<"$out" ||
    bad "no perturbation line"
grep -q "traced/untraced" <<<"$out" && bad "the traced/untraced rows are back"
[ -s "$dir/demo.spam" ] || bad "demo.spam not written"
st=$("$spamctl" stat "$dir/demo.spam" 2>&1) || bad "stat: $st"
grep -q "seed 1" <<<"$st" || bad "the seed is not in the header: $st"
grep -Eq "interrupt 0x140" <<<"$st" || bad "no network interrupts in the trace"
# the JSON: the figures printed, and a "hist" that merges into the trace's histogram
python3 - "$dir/d.json" <<'PY' || bad "demo --json"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["os"] == "ours" and d["seed"] == 1 and d["duration_s"] == 2
g = d["hist"]["groups"][0]
assert g["key"] == 0x10B0 and g["inclusive"]["count"] > 100 and sum(g["linear"]["bins"]) == g["inclusive"]["count"]
assert d["machine"]["spam_hook_cycles"] > 0 and any(p["command"] == "routed" for p in d["processes"])
assert d["cpu"]["span_us"] > 1900000 and d["classes"]["interrupt"] > 0
PY
a=$("$spamctl" hist --merge --event int:0xB0 --json "$dir/d.json") || bad "hist --merge of the demo's JSON"
b=$("$spamctl" hist --event int:0xB0 --json "$dir/demo.spam") || bad "hist of the demo's trace"
[ -n "$a" ] && [ "$a" = "$b" ] || bad "the demo's JSON merged differs from hist of its trace"
python3 -c "import xml.etree.ElementTree as E, sys; r=[x for x in E.parse(sys.argv[1]).iter('{http://www.w3.org/2000/svg}rect') if x.get('class')=='bin']; sys.exit(len(r) != 51)" "$dir/d.svg" ||
    bad "demo --svg: not 51 bins"
# --json -: the JSON alone on stdout
(cd "$dir" && "$spamctl" demo --os ours --duration 0.5 --json - -o j.spam) | python3 -c "import json,sys; json.load(sys.stdin)" ||
    bad "demo --json - is not JSON alone"
# without the distribution: where to get it, then the bundled guest
out=$(cd "$dir" && SPAMCTL_BSD43_DIST=/nonexistent "$spamctl" demo --duration 0.5 -o f.spam 2>&1); rc=$?
[ $rc -eq 0 ] && grep -q "distribution is not in /nonexistent" <<<"$out" && grep -q "TUHS" <<<"$out" &&
    grep -q "IPL 12 network protocol service time" <<<"$out" || bad "fallback without the distribution: $rc $out"
out=$(SPAMCTL_BSD43_DIST=/nonexistent "$spamctl" demo --users 2 2>&1); rc=$?
[ $rc -eq 1 ] && grep -q -- "--users needs 4.3BSD" <<<"$out" || bad "--users without the distribution: $rc $out"
# usage errors and bad input
for args in "--os 4.2bsd" "--os ours --users 2" "--os ours --no-perturbation" "--os 4.3bsd --image k.bin" \
            "--users 8" "--image x --disk y" "--bogus" "-o -" "--json a.json --svg a.json"; do
    "$spamctl" demo $args >/dev/null 2>&1; rc=$?
    [ $rc -eq 2 ] || bad "demo $args: exit $rc, want 2"
done
"$spamctl" demo --dist /nonexistent >/dev/null 2>&1; [ $? -eq 1 ] || bad "--dist without a distribution must exit 1"
"$spamctl" demo --os 4.3bsd --duration 2.5 >/dev/null 2>&1; [ $? -eq 2 ] || bad "4.3bsd --duration 2.5 must exit 2"
"$spamctl" demo --image /nonexistent -o "$dir/x.spam" >/dev/null 2>&1; [ $? -eq 1 ] ||
    bad "demo with a missing image must exit 1"
# Every command exists: called without its arguments, each is a usage
# error (status 2), never a crash and never "not implemented" (3).
for cmd in run stat decode hist compress decompress export boot; do
    "$spamctl" $cmd >/dev/null 2>&1; rc=$?
    [ $rc -eq 2 ] || bad "spamctl $cmd without arguments exit $rc, expected 2"
done
"$spamctl" bogus >/dev/null 2>&1; [ $? -eq 2 ] || bad "unknown command exit"
"$spamctl" --help | grep -q "Usage: spamctl" || bad "--help"
h=$("$spamctl" demo --help)
for o in --os -o --json --svg --seed --net-rate --duration --dist --users --no-perturbation; do
    grep -q -- "$o" <<<"$h" || bad "demo --help does not mention $o"
done
"$spamctl" bsd43 --dist /nonexistent >/dev/null 2>&1; [ $? -eq 1 ] || bad "bsd43 --dist without a distribution"
"$spamctl" bsd43 --bogus >/dev/null 2>&1; [ $? -eq 2 ] || bad "bsd43 --bogus"
[ $fail -eq 0 ] && echo "spamctl: all checks passed"
exit $fail
