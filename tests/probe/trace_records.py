"""Raw SPAM traces for the probe tests: the records as pairs, and the
records less the probe groups (so that a run with probes compares with a
run without).  Imported by tests/probe/cli_probes.py and
tests/bsd43/bsd43_probes.py."""
import struct


def records(path):
    """The trace's records as (w0, w1) pairs (a raw, complete trace);
    ValueError if the file is not a raw trace."""
    data = open(path, "rb").read()
    if data[:8] != b"SPAMTRC\0":
        raise ValueError(f"{path}: not a raw trace")
    hsize = struct.unpack_from("<H", data, 10)[0]
    body = data[hsize:]
    return [struct.unpack_from("<II", body, i) for i in range(0, len(body) - len(body) % 8, 8)]


def without_probe_records(recs):
    """The records less probe groups (a class 7 record and its value records)."""
    out, skip = [], 0
    for w0, w1 in recs:
        if skip:
            skip -= 1
            continue
        if (w1 >> 12) & 0xF == 7:
            skip = ((w1 & 0xF) + 1) // 2
            continue
        out.append((w0, w1))
    return out
