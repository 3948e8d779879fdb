#!/usr/bin/env python3
"""Print "PASSED FAILED" counted (SKIP counts as failed) from a meson testlog.json (one JSON object
per line), so tests/run-all.sh can add up several builds."""
import json
import sys

passed = failed = 0
with open(sys.argv[1]) as f:
    for line in f:
        line = line.strip()
        if not line:
            continue
        result = json.loads(line).get("result")
        if result in ("OK", "EXPECTEDFAIL"):
            passed += 1
        else:  # a skipped test counts as a failure: no skipped checks
            failed += 1
print(passed, failed)
