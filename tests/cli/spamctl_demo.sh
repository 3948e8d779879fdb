#!/bin/bash
# spamctl's present contract: `demo` loads and disassembles the bundled
# guest and says honestly what it does not do yet; usage errors exit with
# status 2.
set -uo pipefail
spamctl=$1
fail=0
out=$("$spamctl" demo 2>&1); rc=$?
[ $rc -eq 0 ] || { echo "FAIL: demo exit $rc: $out"; fail=1; }
grep -q "not" <<<"$out" && grep -q "built yet" <<<"$out" ||
    { echo "FAIL: demo does not say the machine is missing"; fail=1; }
grep -q "entry 0x00000200" <<<"$out" || { echo "FAIL: demo entry point"; fail=1; }
grep -Eq "moval" <<<"$out" && grep -Eq "halt" <<<"$out" ||
    { echo "FAIL: demo disassembly: $out"; fail=1; }
# Every command exists now: called without its arguments, each is a usage
# error (status 2), never a crash and never "not implemented" (3).
for cmd in run stat decode hist compress decompress export; do
    "$spamctl" $cmd >/dev/null 2>&1; rc=$?
    [ $rc -eq 2 ] || { echo "FAIL: spamctl $cmd without arguments exit $rc, expected 2"; fail=1; }
done
"$spamctl" bogus >/dev/null 2>&1; [ $? -eq 2 ] || { echo "FAIL: unknown command exit"; fail=1; }
"$spamctl" --help | grep -q "Usage: spamctl" || { echo "FAIL: --help"; fail=1; }
"$spamctl" demo --image /nonexistent >/dev/null 2>&1; [ $? -eq 1 ] ||
    { echo "FAIL: demo with a missing image must exit 1"; fail=1; }
[ $fail -eq 0 ] && echo "spamctl: all checks passed"
exit $fail
