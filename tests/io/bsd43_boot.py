#!/usr/bin/env python3
"""4.3BSD's distribution tape on our 8600, against SIMH's 8600.

usage: bsd43_boot.py SPAMCTL MKDIST BSD43_DIR ORACLE WORKDIR

1. Builds the distribution tape (SIMH .tap) from stand.gz, miniroot.gz and
   rootdump.gz (SHA-256 checked) and an empty RP06 image (mkdist.py).
2. The console boots `copy` from the tape's tp archive (--boot tu0:copy);
   a console script answers From: ht(8,1) (MBA 1, tape file 2) and To:
   hp(0,1) (partition b): "Copy completed: 205 records copied".
3. SIMH's vax8600 does the same copy on its own image; both disks must be
   byte-identical.
4. The console boots the tape's `boot` (--boot tu0); the script answers
   ": " with hp(0,1)vmunix.  The kernel's console lines, as far as this
   machine gets, must appear in the same order in SIMH's 8600 transcript
   of the same boot (ours lacks the devices we do not model: hk, tmscp,
   uda, zs, lp, de, dz1-3) and in ../shared/bsd43/transcripts.
5. Reports where and why our run ended: today the first F/D floating
   instruction (the kernel takes a reserved instruction fault and panics,
   or the machine stops with "not implemented in microcode" once the
   opcode table has it), with the instruction count.
"""
import os
import re
import shutil
import subprocess
import sys

TAPE_BOOT_BLOCKS = 7


def tp_file(stand, name):
    """A file of the tp archive after the tape's boot blocks."""
    arch = stand[TAPE_BOOT_BLOCKS * 512:]
    for e in range(512, 63 * 512, 64):
        ent = arch[e:e + 64]
        if ent[0] and ent[:32].split(b"\0")[0] == name.encode():
            size = ent[37] << 16 | ent[38] | ent[39] << 8
            addr = ent[44] | ent[45] << 8
            return arch[addr * 512:addr * 512 + size]
    sys.exit(f"no {name} in the tp archive")


def clean(text):
    """Console bytes to lines: bit 7 stripped, CRs dropped."""
    s = bytes(b & 0x7F for b in text).decode("ascii", "replace").replace("\r", "")
    return [l.rstrip() for l in s.split("\n")]


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    return p.returncode, p.stdout + p.stderr


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    spamctl, mkdist, dist, oracle, work = sys.argv[1:]
    fails = []
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    tap, disk = f"{work}/dist.tap", f"{work}/rp06.dsk"
    subprocess.run([sys.executable, mkdist, dist, tap, "--rp06", disk], check=True)
    import gzip
    stand = gzip.decompress(open(f"{dist}/stand.gz", "rb").read())
    for name in ("boot", "copy"):
        open(f"{work}/{name}", "wb").write(tp_file(stand, name))

    # 2. copy the miniroot to partition b with the tape's own copy program
    with open(f"{work}/copy.script", "w") as f:
        f.write("# 4.3BSD installation, step 2: the mini-root to hp0b\n"
                "expect From: \nsend ht(8,1)\\r\n"
                "expect To: \nsend hp(0,1)\\r\n"
                "expect Copy completed: \nexpect \\n\nhalt\n")
    rc, out = run([spamctl, "run", "--boot", "tu0:copy", "--attach", f"tu0:ro={tap}",
                   "--attach", f"rp0={disk}", "--memory", "8", "--max-cycles", "600000000",
                   "--console-script", f"{work}/copy.script",
                   "--console-out", f"{work}/copy.log"])
    copy_log = clean(open(f"{work}/copy.log", "rb").read())
    print("copy:", " | ".join(l for l in copy_log if l))
    print("     ", out.strip().splitlines()[-1] if out.strip() else "")
    if rc != 0 or "Copy completed: 205 records copied" not in copy_log:
        fails.append(f"copy: exit {rc}, {out.strip()}")

    # 3. SIMH copies the same way; the disks must agree byte for byte
    simh_disk = f"{work}/simh-rp06.dsk"
    subprocess.run([sys.executable, mkdist, dist, f"{work}/simh.tap", "--rp06", simh_disk],
                   check=True)
    common = ("set cpu 8m\nset tto 7b\nset rl disable\nset xu enable\n"
              "set xu mac=08:00:2b:47:54:49\nset rp0 rp06\n"
              f"attach rp0 {os.path.abspath(simh_disk)}\n"
              f"attach -r tu0 {os.path.abspath(work)}/simh.tap\n")
    with open(f"{work}/copy.ini", "w") as f:
        f.write(common + f"load -o {os.path.abspath(work)}/copy 0\n"
                "expect \"From: \" send \"ht(8,1)\\r\"; continue\n"
                "expect \"To: \" send \"hp(0,1)\\r\"; continue\n"
                "expect \"Copy completed\" exit\nrun 2\n")
    rc, out = run([oracle, f"{work}/copy.ini"], stdin=subprocess.DEVNULL, timeout=600)
    if "Copy completed" not in out:
        fails.append(f"SIMH's copy did not complete: {out[-300:]}")
    elif open(disk, "rb").read() != open(simh_disk, "rb").read():
        fails.append("our disk after copy differs from SIMH's")
    else:
        print("disk after copy: byte-identical to SIMH's")

    # 4. boot the miniroot's kernel from hp0b
    with open(f"{work}/boot.script", "w") as f:
        f.write("expect : \nsend hp(0,1)vmunix\\r\n"
                "expect SBIA0 at IO adaptor 0 address 0x20080000\n"
                "expect hp0 at mba0 drive 0\n")
    rc, out = run([spamctl, "run", "--boot", "tu0", "--attach", f"tu0:ro={tap}",
                   "--attach", f"rp0={disk}", "--memory", "8", "--max-cycles", "400000000",
                   "--console-script", f"{work}/boot.script",
                   "--console-out", f"{work}/boot.log"])
    ours = [l for l in clean(open(f"{work}/boot.log", "rb").read()) if l]
    summary = out.strip().splitlines()
    if rc != 0:
        fails.append(f"boot: exit {rc}: {out.strip()}")
    with open(f"{work}/boot.ini", "w") as f:
        f.write(common + f"load -o {os.path.abspath(work)}/boot 0\ndep r10 0\ndep r11 0\n"
                "expect \": \" send \"hp(0,1)vmunix\\r\"; continue\n"
                "expect \"root device?\" show time; exit\nrun 2\n")
    _, simh_out = run([oracle, f"{work}/boot.ini"], stdin=subprocess.DEVNULL, timeout=600)
    simh = [l.rstrip() for l in simh_out.replace("\r", "").split("\n")]
    ref = [l.rstrip() for l in open(f"{dist}/transcripts/vax8600-install.log")]

    # our lines until the kernel leaves the path the oracle took
    def stop_line(l):
        return l.startswith(("trap type", "panic:", "root device?"))
    kernel = ours[ours.index(": hp(0,1)vmunix"):] if ": hp(0,1)vmunix" in ours else ours
    upto = next((i for i, l in enumerate(kernel) if stop_line(l)), len(kernel))
    compared = kernel[:upto]

    def subsequence(a, b):
        """The lines of a not found in b in a's order."""
        missing, pos = [], 0
        for l in a:
            try:
                pos = b.index(l, pos) + 1
            except ValueError:
                missing.append(l)
        return missing

    # from the boot's first line on (the prompt's echo differs in layout)
    for name, other in (("SIMH's 8600", simh), ("the reference transcript", ref)):
        miss = subsequence(compared[1:], other)
        if miss:
            fails.append(f"lines not in {name} (or out of order): {miss}")
    for want in ("SBIA0 at IO adaptor 0 address 0x20080000", "uba0 at tr3",
                 "dz0 at uba0 csr 160100 vec 300, ipl 15",
                 "de0 at uba0 csr 174510 vec 120, ipl 15",
                 "de0: hardware address 08:00:2b:47:54:49", "mba0 at tr8",
                 "hp0 at mba0 drive 0"):
        if want not in compared:
            fails.append(f"missing: {want}")
    print(f"kernel lines compared with SIMH and the transcript: {len(compared)}")
    for l in compared:
        print("   ", l)
    after = kernel[upto:upto + 3]
    if after:
        print("then:", " | ".join(after))
    print("run:", summary[-2] if len(summary) > 1 and summary[-1].startswith("events")
          else summary[-1] if summary else "")
    m = re.search(r"trap type \d+, code = \d+, pc = ([0-9a-f]+)", "\n".join(kernel))
    if m:
        print(f"the kernel's first trap at PC 0x{m.group(1)} (a reserved instruction "
              "fault: an opcode this machine does not have yet)")
    m = re.search(r"not implemented in microcode \(opcode ([0-9A-F]+)\)", out)
    if m:
        print(f"the machine stopped at opcode {m.group(1)}: not implemented in microcode")
    t = re.search(r"Time:\s*(\d+)", simh_out)
    if t:
        print(f"SIMH's 8600 reached 'root device?' after {t.group(1)} instructions")

    for f in fails:
        print("FAIL", f)
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
