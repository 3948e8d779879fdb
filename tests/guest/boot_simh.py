#!/usr/bin/env python3
"""Boot the bundled guest kernel on SIMH's vax780 and check its console.

usage: boot_simh.py VAX780 KERNEL.BIN

Three boots, each a few seconds of VAX time (SIMH's clock follows wall
time):
  1. 8 MB, 300 ticks: memory sizing, process start-up, system calls and
     their error convention, the kill of misbehaving processes,
     preemption (context switches), the shutdown report and the HALT.
  2. 16 MB, 100 ticks: memory sizing finds the other size; a memory dump
     after the HALT checks the u-area/proc/text/inode chain SPAM follows.
  3. 8 MB, 300 ticks, cfg_netsim = 2: the software packet source drives
     the MOVC3 copy, the IPL 12 protocol handler and the routing daemon.
The configuration block (vax/guest/README.md) is patched with SIMH
`deposit` before the start, as a loader would."""
import os
import re
import subprocess
import sys
import tempfile

FAILS = []


def check(cond, what, out):
    if not cond:
        FAILS.append(what)
        print("FAIL:", what)


def boot(vax780, kernel, mem, ticks, netsim=0, dump=False):
    with tempfile.TemporaryDirectory() as d:
        sim = os.path.join(d, "boot.sim")
        with open(sim, "w") as f:
            f.write("set cpu %s\n" % mem)
            f.write("load -o %s 0\n" % kernel)
            f.write("deposit -l 14 %x\n" % ticks)      # cfg_ticks
            f.write("deposit -l 1C %x\n" % netsim)     # cfg_netsim
            f.write("deposit PSL 41F0000\n")
            f.write("run 0\n")
            if dump:        # after the HALT: PCBB and the low 256 KB
                f.write("ex PCBB\nex -l 0:3FFFF\n")
            f.write("quit\n")
        r = subprocess.run([vax780, sim], stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=25)
        return r.stdout.decode("latin-1").replace("\r", "")


def table(out):
    """The shutdown report's process lines: pid -> (ppid, uid, comm, state,
    ticks, user, runs, syscalls, status or None)."""
    rows = {}
    for m in re.finditer(r"^ +(\d+) +(\d+) +(\d+)  (\S*) +(exit|sleep|run) +"
                         r"(\d+) +(\d+) +(\d+) +(\d+)(?:  status 0x([0-9a-f]+))?$",
                         out, re.M):
        g = m.groups()
        rows[int(g[0])] = (int(g[1]), int(g[2]), g[3], g[4], int(g[5]),
                           int(g[6]), int(g[7]), int(g[8]),
                           int(g[9], 16) if g[9] else None)
    return rows


def check_chain(out):
    """Follow SPAM's extended-record chain (spam/TRACE-FORMAT.md) in the
    memory dump: for every process, p_addr -> its u-area PTE -> the PCB
    page (what PCBB holds while it runs), u_procp back to the proc,
    u_uid = p_uid, p_textp -> x_iptr -> i_dev, i_number."""
    mem = {}
    for m in re.finditer(r"^([0-9A-F]+):\t([0-9A-F]{8})$", out, re.M):
        mem[int(m.group(1), 16)] = int(m.group(2), 16)
    m = re.search(r"^PCBB:\t([0-9A-F]+)$", out, re.M)
    if not m or len(mem) < 0x10000:
        check(False, "memory dump for the SPAM chain", out)
        return

    def rl(pa):                        # longword at any byte address
        lo = mem.get(pa & ~3, 0) | (mem.get((pa & ~3) + 4, 0) << 32)
        return (lo >> (8 * (pa & 3))) & 0xFFFFFFFF

    def rw(pa):
        return rl(pa) & 0xFFFF

    def pa(va):                        # S0 address -> physical (identity)
        return va - 0x80000000

    pcbb = int(m.group(1), 16)
    cur = pa(rl(pcbb + 0x80))          # u_procp of the running process
    base = cur - 0x80 * (rw(cur + 0x34) - 1)   # pid n lives in entry n-1
    inode_of = {"init": 2, "cpu": 3, "syscall": 4, "routed": 5,
                "spamread": 6, "crash": 7}
    seen = 0
    for i in range(12):
        p = base + 0x80 * i
        if mem.get(p + 0x14, 0) >> 24 == 0:      # p_stat 0: free entry
            continue
        pid, uid = rw(p + 0x34), rw(p + 0x30)
        pte = rl(pa(rl(p + 0x10)))               # p_addr -> u-area PTE
        u = (pte & 0x1FFFFF) << 9
        comm = bytes((rl(u + 0x88 + k) & 0xFF) for k in range(16)).split(b"\0")[0].decode()
        text = pa(rl(p + 0x64))
        ino = pa(rl(text + 0x44))
        ok = (pte >> 31 == 1 and pa(rl(u + 0x80)) == p and rw(u + 0x102) == uid
              and pid == i + 1 and comm in inode_of
              and rw(ino + 0x0C) == 0 and rl(ino + 0x14) == inode_of[comm])
        check(ok, "SPAM chain for pid %d (%s): uid %d, inode %d"
              % (pid, comm, uid, rl(ino + 0x14)), out)
        seen += 1
    print("SPAM chain followed for %d processes (PCBB %x)" % (seen, pcbb))
    check(seen == 9, "SPAM chain: 9 processes", out)
    check(pcbb == ((rl(pa(rl(cur + 0x10))) & 0x1FFFFF) << 9),
          "PCBB is the running process's u-area page 0", out)


def main():
    vax780, kernel = sys.argv[1], os.path.abspath(sys.argv[2])

    # --- 1. the full run ---------------------------------------------
    out = boot(vax780, kernel, "8m", 300)
    print(out)
    check("memory: 8192 KB" in out, "memory sizing (8 MB)", out)
    check("no network interface" in out, "network probe on SIMH", out)
    check("init: started" in out, "init runs", out)
    spawned = re.findall(r"init: spawned pid (\d+) \(program (\d+), uid (\d+)\)", out)
    check(len(spawned) == 8 and [int(p) for p, _, _ in spawned] == list(range(2, 10)),
          "init spawns pids 2..9", out)
    check("syscall: write(7) -> carry set, errno 9" in out, "EBADF via carry", out)
    check("syscall: call 999 -> carry set, errno 22" in out, "EINVAL via carry", out)
    check("routed: no network interface, exiting" in out, "routed without network", out)
    check("spamread: no SPAM microcode" in out, "spamread guard", out)
    check("pid 7 (crash) killed: reserved instruction at pc" in out, "kill: privileged", out)
    check("pid 8 (crash) killed: access violation at pc" in out, "kill: unmapped", out)
    check("pid 9 (crash) killed: arithmetic trap at pc" in out, "kill: divide by zero", out)
    for inst, pid, uid in ((0, 2, 100), (1, 3, 101)):
        check(re.search(r"cpu #%d pid %d uid %d: \d+ rounds, 1229 primes below 10000"
                        % (inst, pid, uid), out), "cpu #%d reports" % inst, out)
    check(re.search(r"syscall pid 4 uid 102: \d+ calls by tick \d+", out),
          "syscall program reports (getpid/getuid/time)", out)
    check("shutdown at tick 300" in out, "shutdown at the configured tick", out)
    rows = table(out)
    want = {1: (0, 0, "init"), 2: (1, 100, "cpu"), 3: (1, 101, "cpu"),
            4: (1, 102, "syscall"), 5: (1, 1, "routed"), 6: (1, 0, "spamread"),
            7: (1, 103, "crash"), 8: (1, 103, "crash"), 9: (1, 103, "crash")}
    for pid, (ppid, uid, comm) in want.items():
        r = rows.get(pid)
        check(r is not None and r[:3] == (ppid, uid, comm),
              "report line for pid %d (%s)" % (pid, comm), out)
    if len(rows) == 9:
        check(rows[2][4] > 50 and rows[3][4] > 50, "cpu programs get the CPU", out)
        check(rows[2][6] > 5 and rows[3][6] > 5, "cpu programs are preempted", out)
        check(rows[4][7] > 1000, "syscall program makes many calls", out)
        check(rows[5][8] == 1 and rows[6][8] == 1, "exit statuses 1", out)
        check((rows[7][8], rows[8][8], rows[9][8]) == (0x110, 0x120, 0x134),
              "kill statuses carry the vector", out)
    m = re.search(r"context switches: (\d+)  system calls: (\d+)", out)
    check(m and int(m.group(1)) > 50 and int(m.group(2)) > 1000,
          "context switch and system call counts", out)
    check(re.search(r"console interrupts: [1-9]", out), "interrupt-driven console", out)
    check("halted." in out and "HALT instruction" in out, "clean halt", out)

    # --- 2. another memory size; the structures SPAM reads -------------
    out2 = boot(vax780, kernel, "16m", 100, dump=True)
    check("memory: 16384 KB" in out2, "memory sizing (16 MB)", out2)
    check("shutdown at tick 100" in out2 and "halted." in out2, "16 MB run halts", out2)
    check_chain(out2)

    # --- 3. the network path, with the software packet source ---------
    out3 = boot(vax780, kernel, "8m", 300, netsim=2)
    print(out3[out3.find("shutdown at"):])
    check("network: simulated packets every 2 ticks" in out3, "netsim announced", out3)
    check(re.search(r"routed: \d+ packets, last via route \d", out3), "routed is woken", out3)
    m = re.search(r"packets: (\d+)  device interrupts: (\d+)  netisr: (\d+)  "
                  r"bad checksums: (\d+)  queue drops: (\d+)", out3)
    check(m and int(m.group(1)) >= 140 and m.group(1) == m.group(2)
          and int(m.group(3)) > 0 and m.group(4) == "0",
          "packets copied, checked and routed", out3)
    rows3 = table(out3)
    check(5 in rows3 and rows3[5][3] != "exit" and rows3[5][7] > 10,
          "routed keeps running with networking", out3)
    check("halted." in out3, "netsim run halts", out3)

    if FAILS:
        print("%d check(s) failed" % len(FAILS))
        return 1
    print("all guest checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
