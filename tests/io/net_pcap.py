#!/usr/bin/env python3
"""The DEUNA on the network outside the VAX, end to end, read back by tcpdump.

usage: net_pcap.py SPAMCTL VASM GUEST.s WORKDIR

A VAX program (deuna_guest.s) runs the DEUNA as 4.3BSD's driver does and
answers the ARP requests for 192.168.1.2; `spamctl run --net-rate 2000
--net-seed 3 --pcap FILE` gives it one second of emulated traffic.  Then:
- `tcpdump -r` reads the capture: as many frames as the run's summary
  says went over the wire (to the VAX and from it), decoded by kind (ARP
  requests for 192.168.1.2, echo requests, RIP responses, XNS frames, the
  VAX's ARP replies), in time order, nanosecond stamps, the first frames
  before the DEUNA ran not received;
- the guest's own counts agree (frames received, replies sent);
- the same seed gives a byte-identical capture, another seed another one;
- a capture that cannot be written stops the run with the path and the
  cause (exit 1); bad options are usage errors (exit 2).
"""
import os
import re
import subprocess
import sys
import json


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    spamctl, vasm, src, work = sys.argv[1:]
    os.makedirs(work, exist_ok=True)
    fails = []

    def check(cond, what):
        print(("ok   " if cond else "FAIL ") + what)
        if not cond:
            fails.append(what)

    elf = f"{work}/deuna_guest.elf"
    subprocess.run([vasm, "--base", "0x1000", "-o", elf, src], check=True)
    one_second = "12500000"
    base = [spamctl, "run", elf, "--net-rate", "2000", "--max-cycles", one_second]

    # the run and its summary
    pcap = f"{work}/a.pcap"
    rc, out, err = run(base + ["--net-seed", "3", "--pcap", pcap])
    print(out.strip())
    check(rc == 0, f"the run: exit {rc} {err.strip()}")
    to = re.search(r"ethernet to the VAX: (\d+) frames \(arp (\d+), echo (\d+), rip (\d+), "
                   r"xns (\d+), other (\d+), answers (\d+)\): (\d+) received by de0", out)
    frm = re.search(r"ethernet from the VAX: (\d+) frames \(arp requests (\d+), arp replies "
                    r"(\d+).*; (\d+) frames in ", out)
    if not to or not frm:
        sys.exit("FAIL no network summary in the run's output")
    n_to, arp, echo, rip, xns, other, answers, received = map(int, to.groups())
    n_from, _, replies, in_file = map(int, frm.groups())
    check(n_to > 1500 and arp > 50 and replies > 50, f"traffic: {n_to} to, {n_from} from the VAX")
    check(in_file == n_to + n_from, f"the capture holds {in_file} = {n_to} + {n_from} frames")

    # tcpdump reads it back
    rc, dump, err = run(["tcpdump", "-n", "--time-stamp-precision=nano", "-tt", "-r", pcap])
    check(rc == 0 and "link-type EN10MB" in err, f"tcpdump -r: exit {rc}, {err.strip()}")
    recs = [l for l in dump.split("\n") if l and not l[0].isspace()]
    check(len(recs) == in_file, f"tcpdump counts {len(recs)} frames")
    times = [float(l.split()[0]) for l in recs]
    check(all(a <= b for a, b in zip(times, times[1:])), "in time order")
    check(times[-1] < 1.0 and times[0] > 0, f"emulated time: {times[0]:.9f} .. {times[-1]:.9f} s")
    stamps = [l.split()[0] for l in recs]
    check(all(len(s.split(".")[1]) == 9 for s in stamps) and
          all(int(s.split(".")[1]) % 80 == 0 for s in stamps),
          "nanosecond stamps, multiples of the 80 ns microcycle")

    # both directions, by the source address on the wire (tcpdump -e)
    rc, dump_e, _ = run(["tcpdump", "-n", "-e", "-r", pcap])
    srcs = [l.split()[1] for l in dump_e.split("\n") if l and not l[0].isspace()]
    from_vax = sum(1 for a in srcs if a == "08:00:2b:47:54:49")
    check(from_vax == n_from and len(srcs) - from_vax == n_to,
          f"tcpdump -e: {from_vax} frames from the VAX (run: {n_from}), "
          f"{len(srcs) - from_vax} to it (run: {n_to})")

    def count(pat):
        return sum(1 for l in recs if re.search(pat, l))
    kinds = {
        "ARP requests for 192.168.1.2": (count(r"ARP, Request who-has 192\.168\.1\.2 tell"), arp),
        "echo requests": (count(r"ICMP echo request"), echo),
        "RIP responses": (count(r"\.520 > 192\.168\.1\.255\.520: RIPv1, Response"), rip),
        "XNS frames": (count(r"ethertype NS \(0x0600\)"), xns),
        "the VAX's ARP replies": (count(r"ARP, Reply 192\.168\.1\.2 is-at 08:00:2b:47:54:49"),
                                  replies),
    }
    for name, (seen, said) in kinds.items():
        check(seen == said, f"{name}: tcpdump {seen}, the run {said}")
    check(count(r"(ARP, Request who-has 192\.168\.1\.2[0-3] |\.1023 > 192\.168\.1\.2[0-3]\.2049)")
          == other, f"other hosts' traffic: {other}")
    check(answers == 0, "no answers: the guest asks nothing")

    # the guest's view, and determinism
    pcap2 = f"{work}/b.pcap"
    state = f"{work}/state.json"
    rc, _, err = run(base + ["--net-seed", "3", "--pcap", pcap2, "--dump-state", state])
    r = [int(x, 16) for x in json.load(open(state))["r"]]
    check(r[8] == received, f"the guest received {r[8]} frames, de0 {received}")
    check(r[9] == replies, f"the guest sent {r[9]} replies")
    check(open(pcap, "rb").read() == open(pcap2, "rb").read(),
          "the same seed: a byte-identical capture")
    pcap3 = f"{work}/c.pcap"
    run(base + ["--net-seed", "4", "--pcap", pcap3])
    check(open(pcap, "rb").read() != open(pcap3, "rb").read(), "another seed: another capture")
    rc, out5, _ = run(base + ["--seed", "3", "--pcap", pcap3])
    check(open(pcap, "rb").read() == open(pcap3, "rb").read(),
          "--net-seed defaults to --seed's value")

    # outputs that cannot be written, bad options
    if os.path.exists("/dev/full"):
        rc, out, err = run(base + ["--pcap", "/dev/full"])
        check(rc == 1 and "spamctl run: /dev/full: No space left on device" in err and
              "pcap write error" in out, f"/dev/full: exit {rc}, {err.strip()}, {out[:80]}")
    rc, out, err = run(base + ["--pcap", f"{work}/no/such/dir/x.pcap"])
    check(rc == 1 and "No such file or directory" in err and "halted" not in out,
          f"an unwritable path: exit {rc}, before the run")
    rc, out, err = run(base + ["--pcap", elf])
    check(rc == 2 and "would overwrite the input" in err, f"--pcap onto the image: exit {rc}")
    rc, out, err = run(base + ["--pcap", pcap, "-o", pcap])
    check(rc == 2 and "name the same file" in err, f"--pcap and -o the same: exit {rc}")
    for opt, val, msg in (("--net-mix", "arp=1,ping=2", "bad value for --net-mix"),
                          ("--net-mix", "arp=0", "add up to 0"),
                          ("--net-seed", "-1", "bad value for --net-seed"),
                          ("--pcap", "", "give a file")):
        rc, out, err = run(base + [opt, val])
        check(rc == 2 and msg in err, f"{opt} '{val}': exit {rc}, {err.strip()}")

    print(f"{len(fails)} failed")
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
