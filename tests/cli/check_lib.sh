# Shared by the CLI regression tests (nothing_lost.sh, nothing_lost2.sh):
# the pass/fail counters and the checks.  Source it; then "$pass" and
# "$fail" hold the tally.
fail=0 pass=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
# check NAME COMMAND...: the command's status decides; check_not: inverted
check() { local name=$1; shift; if "$@"; then ok; else bad "$name"; fi; }
check_not() { local name=$1; shift; if "$@"; then bad "$name"; else ok; fi; }
json() { python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }
# rc_msg NAME RC REGEX: the last command's status ($st) and stderr
# (err.txt) matching REGEX; an empty REGEX: nothing on stderr
rc_msg() {
    local m=0
    if [ -z "$3" ]; then [ ! -s err.txt ] && m=1; else grep -Eq -- "$3" err.txt && m=1; fi
    if [ "$st" -eq "$2" ] && [ $m -eq 1 ]; then
        ok
    else
        bad "$1: exit $st (want $2), stderr: $(head -3 err.txt)"
    fi
}
