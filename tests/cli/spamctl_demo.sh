#!/bin/bash
# spamctl's contract: `demo` boots the bundled guest with SPAM tracing and
# a network load, writes the trace (readable by `spamctl stat`) and prints
# the IPL 12 histogram, the event counts, the context switches and the
# perturbation; usage errors exit with status 2.
set -uo pipefail
spamctl=$(realpath "$1")
fail=0
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
out=$(cd "$dir" && "$spamctl" demo --duration 2 2>&1); rc=$?
[ $rc -eq 0 ] || { echo "FAIL: demo exit $rc: $out"; fail=1; }
grep -q "IPL 12 network protocol service time" <<<"$out" ||
    { echo "FAIL: no IPL 12 histogram: $out"; fail=1; }
grep -Eq "inclusive n=[1-9][0-9]* .*p50 [0-9]+ .*p99" <<<"$out" ||
    { echo "FAIL: no percentiles: $out"; fail=1; }
grep -Eq "^ +[0-9]+- +[0-9]+ us +[0-9]+ #" <<<"$out" || { echo "FAIL: no bars"; fail=1; }
for cls in interrupt exception chm ldpctx rei marker; do
    grep -Eq "^  $cls +[1-9][0-9]*$" <<<"$out" || { echo "FAIL: no count for $cls"; fail=1; }
done
grep -Eq "^ +5 +1 +routed +0/0 +5 +[1-9]" <<<"$out" ||
    { echo "FAIL: context switches of routed (pid 5, uid 1, inode 5): $out"; fail=1; }
grep -q "tracing perturbation" <<<"$out" || { echo "FAIL: no perturbation"; fail=1; }
[ -s "$dir/demo.spam" ] || { echo "FAIL: demo.spam not written"; fail=1; }
st=$("$spamctl" stat "$dir/demo.spam" 2>&1) || { echo "FAIL: stat: $st"; fail=1; }
grep -q "seed 1" <<<"$st" || { echo "FAIL: the seed is not in the header: $st"; fail=1; }
grep -Eq "interrupt 0x140" <<<"$st" || { echo "FAIL: no network interrupts in the trace"; fail=1; }
# Every command exists now: called without its arguments, each is a usage
# error (status 2), never a crash and never "not implemented" (3).
for cmd in run stat decode hist compress decompress export; do
    "$spamctl" $cmd >/dev/null 2>&1; rc=$?
    [ $rc -eq 2 ] || { echo "FAIL: spamctl $cmd without arguments exit $rc, expected 2"; fail=1; }
done
"$spamctl" bogus >/dev/null 2>&1; [ $? -eq 2 ] || { echo "FAIL: unknown command exit"; fail=1; }
"$spamctl" --help | grep -q "Usage: spamctl" || { echo "FAIL: --help"; fail=1; }
"$spamctl" demo --help | grep -q -- "--duration" || { echo "FAIL: demo --help"; fail=1; }
"$spamctl" demo --bogus >/dev/null 2>&1; [ $? -eq 2 ] || { echo "FAIL: demo usage exit"; fail=1; }
"$spamctl" demo --image /nonexistent -o "$dir/x.spam" >/dev/null 2>&1; [ $? -eq 1 ] ||
    { echo "FAIL: demo with a missing image must exit 1"; fail=1; }
[ $fail -eq 0 ] && echo "spamctl: all checks passed"
exit $fail
