#!/usr/bin/env python3
"""bench_vs_simh: our microcoded 8600 against SIMH's vax780, same programs,
same run.

usage: bench_vs_simh.py VASM SPAMCTL VAX780 [--seconds S] [--callgrind]
                        [--only NAME]

Each guest loop runs on both machines from 0x1000 in kernel mode (SP =
0x8000) until HALT.  Start-up costs (process start, microcode load, SIMH's
ini parsing) are removed by running every program twice, with a small and
a large iteration count, and dividing the difference in wall time by the
difference in VAX instructions.  Our instruction and microcycle counts
come from `spamctl run --dump-state`; SIMH runs exactly the same
instruction stream (the loops have no data-dependent control flow), so its
count is derived from ours.  --callgrind adds our host instructions per
microcycle from `valgrind --tool=callgrind` (also by differencing), a
number that is stable on a noisy machine.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

BASE = 0x1000

PROGRAMS = [
    ("alu",
     "    movl $%d, r0\n"
     "1:  addl2 r1, r2\n"
     "    xorl2 r2, r3\n"
     "    incl r4\n"
     "    bicl3 $0xff, r3, r5\n"
     "    sobgtr r0, 1b\n"
     "    halt\n"),
    ("memcopy",
     "    movl $%d, r0\n"
     "2:  movab buf, r5\n"
     "    movab buf+2048, r7\n"
     "    movl $256, r3\n"
     "1:  movl (r5)+, r6\n"
     "    movl r6, (r7)+\n"
     "    sobgtr r3, 1b\n"
     "    sobgtr r0, 2b\n"
     "    halt\n"
     "buf: .space 4096\n"),
    ("calls-ret",
     "    movl $%d, r0\n"
     "1:  pushl r0\n"
     "    calls $1, sub\n"
     "    sobgtr r0, 1b\n"
     "    halt\n"
     "sub: .word 0x000c\n"
     "    movl 4(ap), r2\n"
     "    addl2 r2, r3\n"
     "    ret\n"),
]


def assemble(vasm, src, work, name):
    s = os.path.join(work, name + ".s")
    b = os.path.join(work, name + ".bin")
    with open(s, "w") as f:
        f.write(src)
    subprocess.run([vasm, "--raw", "--base", hex(BASE), "-o", b, s], check=True)
    return b


def ours_cmd(spamctl, binf):
    return [spamctl, "run", "--raw", binf, "--load-at", hex(BASE),
            "--set", "r14=8000", "--max-cycles", "0", "--console-in", "",
            "--dump-state", "-"]


def run_ours(spamctl, binf):
    t0 = time.perf_counter()
    out = subprocess.run(ours_cmd(spamctl, binf), capture_output=True,
                         text=True, check=True).stdout
    t = time.perf_counter() - t0
    st = json.loads(out)
    if st.get("reason") != "HALT instruction":
        sys.exit("our machine stopped: %s" % st.get("reason"))
    return t, st["instructions"], st["microcycles"]


def run_simh(vax780, binf, work):
    ini = os.path.join(work, "s.ini")
    with open(ini, "w") as f:
        f.write("set cpu 16m\nload -o %s %x\ndep pc %x\ndep psl 041F0000\n"
                "dep sp 8000\ngo\nexit\n" % (binf, BASE, BASE))
    t0 = time.perf_counter()
    out = subprocess.run([vax780, ini], capture_output=True, text=True,
                         cwd=work, stdin=subprocess.DEVNULL).stdout
    t = time.perf_counter() - t0
    if "HALT" not in out.upper():
        sys.exit("SIMH did not halt:\n" + out)
    return t


def callgrind_ir(spamctl, binf, work):
    out = os.path.join(work, "cg.out")
    r = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out]
                       + ours_cmd(spamctl, binf), capture_output=True, text=True)
    m = re.search(r"Collected\s*:\s*(\d+)", r.stderr)
    if not m:
        with open(out) as f:
            m = re.search(r"^summary:\s*(\d+)", f.read(), re.M)
    return int(m.group(1))


def best(fn, reps):
    return min(fn() for _ in range(reps))


def main():
    args = sys.argv[1:]
    if len(args) < 3:
        sys.exit(__doc__)
    vasm, spamctl, vax780 = args[:3]
    seconds, cg, only, reps = 1.0, False, None, 3
    rest = args[3:]
    while rest:
        a = rest.pop(0)
        if a == "--seconds":
            seconds = float(rest.pop(0))
        elif a == "--callgrind":
            cg = True
        elif a == "--only":
            only = rest.pop(0)
        elif a == "--reps":
            reps = int(rest.pop(0))
    if cg and not shutil.which("valgrind"):
        print("(valgrind not found: no host instructions per microcycle)")
        cg = False
    print("%-10s %12s %12s %7s %12s %6s %12s %12s %8s" %
          ("program", "ours-ins/s", "simh-ins/s", "ratio", "ours-ucyc/s",
           "CPI", "ours-ns/ins", "simh-ns/ins", "host-ir/uc"))
    with tempfile.TemporaryDirectory() as work:
        for name, src in PROGRAMS:
            if only and name != only:
                continue
            small = 10
            b0 = assemble(vasm, src % small, work, name + "0")
            t0, i0, c0 = run_ours(spamctl, b0)
            # size the run: calibrate on a probe
            probe = 20000
            bp = assemble(vasm, src % probe, work, name + "p")
            tp, ip_, cp = run_ours(spamctl, bp)
            per_iter_t = max((tp - t0) / (probe - small), 1e-9)
            n = max(probe, int(seconds / per_iter_t))
            b1 = assemble(vasm, src % n, work, name + "1")
            t1 = best(lambda: run_ours(spamctl, b1)[0], reps)
            t0 = best(lambda: run_ours(spamctl, b0)[0], reps)
            _, i1, c1 = run_ours(spamctl, b1)
            di, dc = i1 - i0, c1 - c0
            ours_ips = di / (t1 - t0)
            ours_ups = dc / (t1 - t0)
            # SIMH: bigger, it is faster
            ns = n * 8
            bs = assemble(vasm, src % ns, work, name + "s")
            per_iter_i = di / (n - small)
            dis = per_iter_i * (ns - small)
            s1 = best(lambda: run_simh(vax780, bs, work), reps)
            s0 = best(lambda: run_simh(vax780, b0, work), reps)
            simh_ips = dis / (s1 - s0)
            irpc = ""
            if cg:
                ncg = 20000
                bc = assemble(vasm, src % ncg, work, name + "c")
                ir0 = callgrind_ir(spamctl, b0, work)
                ir1 = callgrind_ir(spamctl, bc, work)
                _, _, cc = run_ours(spamctl, bc)
                irpc = "%.1f" % ((ir1 - ir0) / (cc - c0))
            print("%-10s %12.0f %12.0f %7.3f %12.0f %6.2f %12.1f %12.1f %8s" %
                  (name, ours_ips, simh_ips, ours_ips / simh_ips, ours_ups,
                   dc / di, 1e9 / ours_ips, 1e9 / simh_ips, irpc), flush=True)
    print("ratio = our VAX instructions/s / SIMH vax780's (target: >= 0.5 "
          "alu, memcopy; >= 0.33 calls-ret)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
