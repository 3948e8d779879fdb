#!/usr/bin/env python3
"""Makes the seed corpus of the command-line fuzz target (fuzz_cli.c) from
the command lines the tests use (tests/spam/spamctl_trace.sh,
tests/cli/*.sh, tests/machine/uasm_bad.sh, cli/README.md), with small input
files: a complete trace of our own format, its compressed form, a short
(truncated) trace, an assembly source, its ELF and raw images, microcode.

usage: make_cli_seeds.py SPAMCTL VASM SRCDIR OUTDIR
(OUTDIR is tests/fuzz/corpus/cli; rerun it when the formats change.)
"""
import os
import subprocess
import sys
import tempfile


def main():
    spamctl, vasm, src, out = sys.argv[1:5]
    os.makedirs(out, exist_ok=True)
    with tempfile.TemporaryDirectory() as td:
        def path(n):
            return os.path.join(td, n)

        def read(n):
            return open(path(n), "rb").read()

        # 21 marker records: a complete version 2 trace of the machine's own
        open(path("m.s"), "w").write(
            "\tmovl $10, r0\n1:\tdisable\n\tenable\n\tsobgtr r0, 1b\n\thalt\n")
        subprocess.run([vasm, "--raw", "--base", "0x1000", "-o", path("m.bin"), path("m.s")],
                       check=True)
        subprocess.run([spamctl, "run", "--raw", path("m.bin"), "--load-at", "0x1000",
                        "-o", path("m.spam")], check=True, stdout=subprocess.DEVNULL)
        subprocess.run([spamctl, "compress", path("m.spam"), path("m.z")], check=True)
        demo = open(os.path.join(src, "traces", "demo.spam"), "rb").read()
        open(path("ok.s"), "w").write(
            "_start:\tmovl\t$1,%r0\n\taddl2\t$2,%r0\n\tmovab\tmsg,%r1\n\thalt\n"
            "msg:\t.ascii \"hi\"\n\t.long (1+2)*3\n")
        subprocess.run([vasm, "-o", path("ok.elf"), path("ok.s")], check=True)
        subprocess.run([vasm, "--raw", "--base", "0x1000", "-o", path("ok.bin"), path("ok.s")],
                       check=True)
        trace, z, short = read("m.spam"), read("m.z"), demo[:600]
        # histograms as JSON results (hist --merge reads them)
        hjson = subprocess.run([spamctl, "hist", "--json", path("m.spam")], check=True,
                               capture_output=True).stdout
        hlin = subprocess.run([spamctl, "hist", "--json", "--linear", "100:50", "--event",
                               "int:0xB0", os.path.join(src, "traces", "demo.spam")],
                              check=True, capture_output=True).stdout
        asm, elf, raw = read("ok.s"), read("ok.elf"), read("m.bin")
        mic = (b"START: T0 <- ADD(R1, #5), DL=B, GOTO START\n"
               b"T: RES <- ADD(R1, R2), IRD IF OPREG.NOVT ELSE DISPATCH OPREG T\n")

    seeds = {
        # spamctl trace commands (tests/spam/spamctl_trace.sh, tests/cli/)
        "stat": (["spamctl", "stat", "f0"], [trace]),
        "stat-json": (["spamctl", "stat", "--json", "f0"], [trace]),
        "stat-z": (["spamctl", "stat", "f0"], [z]),
        "stat-short": (["spamctl", "stat", "f0"], [short]),
        "stat-partial": (["spamctl", "stat", "--partial", "f0"], [short]),
        "decode-json": (["spamctl", "decode", "--json", "f0"], [trace]),
        "decode-csv": (["spamctl", "decode", "--csv", "f0"], [trace]),
        "decode-filter": (["spamctl", "decode", "--event", "int:0xC0", "--ipl", "21",
                           "--from", "0", "--to", "2000000", "f0"], [short]),
        "decode-pid": (["spamctl", "decode", "--partial", "--pid", "101", "--class", "int",
                        "f0"], [short]),
        "hist": (["spamctl", "hist", "--partial", "f0"], [short]),
        "hist-event": (["spamctl", "hist", "--json", "--event", "int:0x120", "f0"], [trace]),
        "hist-by": (["spamctl", "hist", "--csv", "--by", "ipl", "--correct", "f0"], [trace]),
        "hist-syscalls": (["spamctl", "hist", "--syscalls", "--bars", "f0"], [z]),
        "hist-cpu": (["spamctl", "hist", "--cpu", "--partial", "f0"], [short]),
        "hist-svg": (["spamctl", "hist", "--svg", "f1", "f0"], [trace]),
        "hist-linear": (["spamctl", "hist", "--linear", "100:50", "--records", "10", "f0"],
                        [trace]),
        "hist-merge": (["spamctl", "hist", "--merge", "--json", "f0", "f1"], [trace, hjson]),
        "hist-merge-linear": (["spamctl", "hist", "--merge", "--linear", "100:50", "f0", "f0"],
                              [hlin]),
        "compress": (["spamctl", "compress", "-9", "-v", "f0", "f1"], [trace]),
        "compress-inplace": (["spamctl", "compress", "f0", "f0"], [trace]),
        "decompress": (["spamctl", "decompress", "f0", "f1"], [z]),
        "decompress-stdout": (["spamctl", "decompress", "f0"], [z]),
        "export-chrome": (["spamctl", "export", "--chrome", "f1", "f0"], [trace]),
        "export-ctf": (["spamctl", "export", "--ctf", "d", "f0"], [trace]),
        "export-lttng": (["spamctl", "export", "--ctf", "d", "--lttng", "--gap-us", "100",
                          "f0"], [z]),
        # spamctl run (cli/README.md, tests/cli/)
        "run-raw": (["spamctl", "run", "--raw", "f0", "--load-at", "0x1000", "-o", "f1"],
                    [raw]),
        "run-tap": (["spamctl", "run", "--raw", "f0", "--load-at", "0x1000", "-o", "f1",
                     "--drain-tap", "--drain-every", "1000", "--no-rei-trace"], [raw]),
        "run-state": (["spamctl", "run", "--raw", "f0", "--load-at", "0x1000", "--set",
                       "r3=12", "--psl", "041f0000", "--dump-mem", "0x1000:16",
                       "--dump-state", "f1"], [raw]),
        "run-elf": (["spamctl", "run", "f0", "--console-in", "@f1", "--console-out", "f2"],
                    [elf, b"hello\r"]),
        "run-microcode": (["spamctl", "run", "--raw", "f0", "--load-at", "0x1000",
                           "--microcode", "f1"], [raw, mic]),
        "run-guest-drain": (["spamctl", "run", "--raw", "f0", "--load-at", "0x1000",
                             "--drain=guest", "--spam-priv", "kernel", "--net-rate", "1000",
                             "--seed", "3"], [raw]),
        # configuration files (tests/cli/config.sh)
        "run-config": (["spamctl", "run", "--config", "f0", "--console-out", "f2"],
                       [b"# a machine\nmemory 2m\nload f1\nset console-in \"hi there\"  ; typed\n"
                        b"set max-cycles 100000\n", elf]),
        "boot-config": (["spamctl", "boot", "f0", "--console-8bit"],
                        [b"attach -r tu0 f1\nboot tu0\nnet rate=10 seed=2 mix=arp=1\ndz br=4\n"
                         b"dz 1 log=f2\ntodr fixed\n", raw]),
        # vasm, vdis, uasm (tests/cli/bad_input.sh, tests/machine/uasm_bad.sh)
        "vasm": (["vasm", "-o", "f1", "f0"], [asm]),
        "vasm-raw": (["vasm", "--raw", "--base", "0x1000", "-o", "f1", "f0"], [asm]),
        "vasm-listing": (["vasm", "--listing", "-e", "_start", "-o", "f1", "f0", "f2"],
                         [asm, b"\t.long (1+\n"]),
        "vdis": (["vdis", "f0"], [elf]),
        "vdis-raw": (["vdis", "--raw", "--base", "0x1000", "--no-addr", "f0"], [raw]),
        "uasm": (["uasm", "--listing", "-", "-o", "f1", "f0"], [mic]),
        "uasm-emit": (["uasm", "--emit-c", "sym", "-o", "f1", "--labels", "f0"], [mic]),
    }
    for name, (args, files) in seeds.items():
        data = "\n".join(args).encode() + b"\n\n" + b"\n--file--\n".join(files)
        open(os.path.join(out, name), "wb").write(data)
    print("%d seeds in %s" % (len(seeds), out))


if __name__ == "__main__":
    main()
