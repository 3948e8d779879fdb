"""The frames a `spamctl run --pcap` capture holds, counted by kind for a
stretch of emulated time (issue 18's network overhead per packet).

The capture is classic pcap with nanosecond stamps (magic a1b23c4d),
link type Ethernet without FCS; a stamp is the emulated time the frame's
first bit went out, microcycles x 80 ns from power-on, the same origin
as the trace's reconstructed time.
"""
import struct

VAX = bytes.fromhex("08002b475449")   # the DEUNA's station address
BROADCAST = b"\xff" * 6


class PcapError(Exception):
    pass


def frames(path):
    """(t_ns, frame bytes) for every frame."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 24:
        raise PcapError(f"{path}: too short for a pcap header")
    magic, = struct.unpack_from("<I", data, 0)
    if magic != 0xA1B23C4D:
        raise PcapError(f"{path}: not a nanosecond pcap file (magic {magic:08x})")
    off = 24
    while off + 16 <= len(data):
        sec, nsec, caplen, _ = struct.unpack_from("<IIII", data, off)
        off += 16
        if off + caplen > len(data):
            raise PcapError(f"{path}: a frame runs past the end")
        yield sec * 1_000_000_000 + nsec, data[off:off + caplen]
        off += caplen


def kind(fr):
    """arp, echo, rip, xns or other, as io_netsrc.h names the traffic."""
    if len(fr) < 14:
        return "other"
    et = fr[12] << 8 | fr[13]
    if et == 0x0806:
        return "arp"
    if et == 0x0600:
        return "xns"
    if et == 0x0800 and len(fr) >= 34:
        proto, ihl = fr[23], (fr[14] & 15) * 4
        if proto == 1:
            return "echo"
        if proto == 17 and len(fr) >= 14 + ihl + 4:
            dport = fr[14 + ihl + 2] << 8 | fr[14 + ihl + 3]
            if dport == 520:
                return "rip"
    return "other"


def count(path, t0_us, t1_us):
    """Frames in [t0, t1) us that the DEUNA takes (to the VAX's address or
    broadcast, not from the VAX), by kind, and the frames the VAX sent."""
    to_vax, from_vax = {}, 0
    for t, fr in frames(path):
        if not t0_us * 1000 <= t < t1_us * 1000 or len(fr) < 14:
            continue
        if fr[6:12] == VAX:
            from_vax += 1
        elif fr[0:6] in (VAX, BROADCAST):
            k = kind(fr)
            to_vax[k] = to_vax.get(k, 0) + 1
    return to_vax, from_vax
