#!/usr/bin/env python3
"""Issue 33: the same-file rule, enumerated.  Every output option of every
command is pointed at every kind of file the command reads (an input, an
attached medium, a script), by the same name, through a symbolic link and
through a hard link: each must be refused (exit 2, "would overwrite") with
the input left as it was.  Every pair of a command's outputs naming one
file (not made yet, or through a dangling link) is refused too, and so is
one writable image on two units.  compress and decompress, which write a
temporary file and rename it, may replace their own trace.  A control run
with distinct names shows that each command gets past the rule, so the
refusals above are the rule's.

Commands without an output file (stat, decode, names show, vdis) write
only to stdout and have nothing to enumerate.

    same_file_all.py SPAMCTL VASM UASM SRCDIR
"""
import os
import random
import shutil
import subprocess
import sys
import tempfile

SPAMCTL, VASM, UASM, SRC = (os.path.abspath(a) for a in sys.argv[1:5])
DEMO_TRACE = os.path.join(SRC, "traces", "demo.spam")

# each command: its tool, a base command line with {in}-free fixed parts,
# the inputs (name, argv for file f, default file kind) and outputs (name,
# argv for file f); "" names a positional argument
RUN_INPUTS = [
    ("--microcode", lambda f: ["--microcode", f]),
    ("--console-in @FILE", lambda f: ["--console-in", "@" + f]),
    ("--attach rp0", lambda f: ["--attach", "rp0=" + f]),
    ("--attach rp0:ro", lambda f: ["--attach", "rp0:ro=" + f]),
    ("--attach tu0:ro", lambda f: ["--attach", "tu0:ro=" + f]),
    ("--attach tu1", lambda f: ["--attach", "tu1=" + f]),
    ("--console-script", lambda f: ["--console-script", f]),
    ("--dz-script 1", lambda f: ["--dz-script", "1=" + f]),
]
RUN_OUTPUTS = [
    ("-o", lambda f: ["-o", f]),
    ("--console-out", lambda f: ["--console-out", f]),
    ("--dump-state", lambda f: ["--dump-state", f]),
    ("--pcap", lambda f: ["--pcap", f]),
    ("--dz-log 2", lambda f: ["--dz-log", "2=" + f]),
    ("--dz-report", lambda f: ["--dz-report", f]),
]
COMMANDS = [
    # name, tool, base(input file or None), inputs, outputs, control?
    ("run --raw", SPAMCTL,
     lambda f: ["run", "--raw", f, "--load-at", "0x1000", "--max-cycles", "1000"],
     [("--raw", None)] + RUN_INPUTS, RUN_OUTPUTS, True),
    ("run IMAGE", SPAMCTL, lambda f: ["run", f, "--max-cycles", "1000"],
     [("IMAGE", None)] + RUN_INPUTS, RUN_OUTPUTS, True),
    ("demo --os ours", SPAMCTL, lambda f: ["demo", "--os", "ours", "--duration", "0.5"],
     [("--image", lambda f: ["--image", f])],
     [("-o", lambda f: ["-o", f]), ("--json", lambda f: ["--json", f]),
      ("--svg", lambda f: ["--svg", f])], True),
    ("demo --os 4.3bsd", SPAMCTL, lambda f: ["demo", "--os", "4.3bsd"],
     [("--disk", lambda f: ["--disk", f])],
     [("-o", lambda f: ["-o", f]), ("--json", lambda f: ["--json", f]),
      ("--svg", lambda f: ["--svg", f])], False),
    ("hist", SPAMCTL, lambda f: ["hist", f],
     [("TRACE", None), ("--names", lambda f: ["--names", f])],
     [("--svg", lambda f: ["--svg", f])], True),
    ("export", SPAMCTL, lambda f: ["export", f],
     [("TRACE", None), ("--names", lambda f: ["--names", f])],
     [("--chrome", lambda f: ["--chrome", f]),
      ("--ctf", lambda f: ["--ctf", os.path.dirname(f) or "."])], True),
    ("names extract", SPAMCTL, lambda f: ["names", "extract", "--kernel", f],
     [("--kernel", None), ("--disk", lambda f: ["--disk", f]),
      ("--syscalls", lambda f: ["--syscalls", f])],
     [("-o", lambda f: ["-o", f])], True),
    ("vasm", VASM, lambda f: [f], [("FILE.s", None)], [("-o", lambda f: ["-o", f])], True),
    ("uasm", UASM, lambda f: [f], [("FILE.mic", None)],
     [("-o", lambda f: ["-o", f]), ("--listing", lambda f: ["--listing", f])], True),
]

fails = passes = 0


def ok(cond, what):
    global fails, passes
    if cond:
        passes += 1
    else:
        fails += 1
        print("FAIL", what)


def run(tool, args, cwd):
    try:
        p = subprocess.run([tool] + args, cwd=cwd, capture_output=True,
                           stdin=subprocess.DEVNULL, timeout=60)
        return p.returncode, p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return 124, "timeout"


def command(base, inputs_args, out_args, default_in):
    return base(default_in) + inputs_args + out_args


def fresh(d, empty=False):
    """in.dat (the input under test) and base.dat (the command's own), 4 KB
    of random bytes: the rule is checked before any input is read, except
    --names, loaded with the options (an empty names file is a valid one)."""
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    rng = random.Random(33)
    data = b"" if empty else bytes(rng.randrange(256) for _ in range(4096))
    for name in ("in.dat", "base.dat"):
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)
    return data


def main():
    top = tempfile.mkdtemp()
    d = os.path.join(top, "w")
    tried = 0
    try:
        for name, tool, base, inputs, outputs, control in COMMANDS:
            for oname, oarg in outputs:
                for iname, iarg in inputs:
                    for how in ("same name", "symbolic link", "hard link"):
                        data = fresh(d, iname == "--names")
                        inp = os.path.join(d, "in.dat")
                        if oname == "--ctf":  # the directory's metadata is the input
                            os.makedirs(os.path.join(d, "ctf"))
                            os.rename(inp, os.path.join(d, "ctf", "metadata"))
                            inp = os.path.join(d, "ctf", "metadata")
                        out = inp
                        if how == "symbolic link" and oname != "--ctf":
                            out = os.path.join(d, "link.out")
                            os.symlink("in.dat", out)
                        elif how == "hard link" and oname != "--ctf":
                            out = os.path.join(d, "hard.out")
                            os.link(inp, out)
                        default_in = inp if iarg is None else os.path.join(d, "base.dat")
                        args = command(base, iarg(inp) if iarg else [], oarg(out), default_in)
                        rc, err = run(tool, args, d)
                        tried += 1
                        what = f"{name}: {oname} onto {iname} ({how}): exit {rc}, {err.strip()[:200]}"
                        ok(rc == 2 and "would overwrite" in err, what)
                        with open(inp, "rb") as f:
                            ok(f.read() == data, what + ": the input changed")
                    if control:  # distinct names: past the rule
                        fresh(d, iname == "--names")
                        inp = os.path.join(d, "in.dat")
                        default_in = inp if iarg is None else os.path.join(d, "base.dat")
                        out = os.path.join(d, "ctfdir", "x") if oname == "--ctf" \
                            else os.path.join(d, "other.out")
                        args = command(base, iarg(inp) if iarg else [], oarg(out), default_in)
                        rc, err = run(tool, args, d)
                        ok("would overwrite" not in err and "same file" not in err,
                           f"{name}: control {oname} with {iname}: {err.strip()[:200]}")
            # two outputs, one file: a new name, and a dangling link to it
            for i in range(len(outputs)):
                for j in range(i + 1, len(outputs)):
                    (an, aa), (bn, ba) = outputs[i], outputs[j]
                    if "--ctf" in (an, bn):
                        continue
                    for how in ("same name", "dangling link"):
                        fresh(d)
                        a = os.path.join(d, "new.out")
                        b = a
                        if how == "dangling link":
                            b = os.path.join(d, "dangling.out")
                            os.symlink("new.out", b)
                        rc, err = run(tool, command(base, [], aa(a) + ba(b),
                                                    os.path.join(d, "base.dat")), d)
                        tried += 1
                        ok(rc == 2 and "name the same file" in err,
                           f"{name}: {an} and {bn} ({how}): exit {rc}, {err.strip()[:200]}")
        # one writable image on two units; read-only on two is fine
        fresh(d)
        os.link(os.path.join(d, "in.dat"), os.path.join(d, "hard.dat"))
        base = ["run", "--raw", "base.dat", "--load-at", "0x1000", "--max-cycles", "1000"]
        for a, b, want in (("rp0=in.dat", "rp1=in.dat", 2), ("rp0=in.dat", "rp3:ro=hard.dat", 2),
                           ("tu0=in.dat", "rp1:ro=in.dat", 2), ("rp0:ro=in.dat", "rp1:ro=hard.dat", 0)):
            rc, err = run(SPAMCTL, base + ["--attach", a, "--attach", b], d)
            tried += 1
            same = "same image" in err
            ok(rc == want and same == (want == 2), f"--attach {a} --attach {b}: exit {rc}, {err.strip()}")
        # in place: compress and decompress replace their trace whole, also
        # through a symbolic link (which stays one)
        original = open(DEMO_TRACE, "rb").read()
        for how in ("same name", "symbolic link"):
            fresh(d)
            t = os.path.join(d, "t.spam")
            shutil.copy(DEMO_TRACE, t)
            out = t
            if how == "symbolic link":
                out = os.path.join(d, "l.spam")
                os.symlink("t.spam", out)
            for cmd in ("compress", "decompress"):
                rc, err = run(SPAMCTL, [cmd, t, out], d)
                tried += 1
                ok(rc == 0, f"{cmd} in place ({how}): exit {rc}, {err.strip()}")
            ok(open(t, "rb").read() == original and
               (how == "same name" or os.path.islink(out)),
               f"compress and decompress in place ({how}): the trace is back")
    finally:
        shutil.rmtree(top, ignore_errors=True)
    print(f"same-file rule: {tried} combinations; {passes} passed, {fails} failed")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
