"""Where the time of a stretch of a 4.3BSD trace went (issue 18): each
process's user and kernel time, each interrupt vector's time, and idle,
from the decoded records (`spamctl decode --csv`, with --names for the
programs' paths).

Time between two records belongs to the state after the first:
- inside an interrupt (from its record to the REI that closes it), to
  that vector, exclusive of interrupts nested in it;
- otherwise to the process named by the record (the pid the LDPCTX
  extended records give), in user mode after an REI to user mode, in its
  kernel after a system call, an exception or an REI to kernel mode, and
  after an LDPCTX until it returns;
- except after a system call or exception that sleeps (its REI comes
  after an LDPCTX): 4.3BSD's idle loop writes no records, so from such a
  call to the next LDPCTX the CPU counts as idle, interrupts aside (the
  kernel's path from the call into the idle loop, a few tens of
  microseconds a sleep, goes to idle with it: a process's kernel time is
  a little low, never high).
"""
import bisect
import collections

INTERRUPT, EXCEPTION, CHM = 1, 2, 3


class Window:
    def __init__(self):
        self.span = 0
        self.idle = 0
        self.user = collections.Counter()      # pid -> us
        self.sys = collections.Counter()       # pid -> us
        self.intr = collections.Counter()      # vector -> us (exclusive)
        self.intr_count = collections.Counter()  # vector -> interrupts begun
        self.path = {}                         # pid -> program (from LDPCTX)

    def cpu(self, pid):
        return self.user[pid] + self.sys[pid]

    def by_program(self):
        """{path: (user, sys, pids)} for the processes the window names."""
        out = {}
        for pid in set(self.user) | set(self.sys):
            p = self.path.get(pid) or f"pid {pid}"
            u, s, n = out.get(p, (0, 0, 0))
            out[p] = (u + self.user[pid], s + self.sys[pid], n + 1)
        return out

    def pids_of(self, path):
        return {pid for pid, p in self.path.items() if p == path}


def account(rows, start, records):
    """A Window for the records with index in [start, start + records)."""
    rows = [r for r in rows if start <= int(r["index"]) < start + records]
    w = Window()
    if len(rows) < 2:
        return w
    # a call or exception that slept: its REI comes after an LDPCTX
    ldp = sorted(int(r["index"]) for r in rows if r["class"] == "ldpctx")
    slept = set()
    for r in rows:
        if r["class"] == "rei" and r["open_index"] and \
                (int(r["open_event"]) >> 12) in (EXCEPTION, CHM):
            o, i = int(r["open_index"]), int(r["index"])
            lo = _first_at_least(ldp, o)
            if lo is not None and lo < i:
                slept.add(o)
    stack, base = [], "sys"
    for a, b in zip(rows, rows[1:]):
        cls, pid = a["class"], int(a["pid"])
        if cls == "ldpctx":
            stack, base = [], "sys"
            if a.get("path"):
                w.path[pid] = a["path"]
        elif cls == "interrupt":
            v = int(a["vector"])
            stack.append(v)
            w.intr_count[v] += 1
        elif cls == "rei":
            oe = int(a["open_event"]) >> 12 if a["open_event"] else 0
            if oe == INTERRUPT:
                if stack:
                    stack.pop()
            elif not stack:
                base = "user" if a["mode"] == "3" else "sys"
        elif cls in ("exception", "chm") and not stack:
            base = "idle" if int(a["index"]) in slept else "sys"
        dt = int(b["t_us"]) - int(a["t_us"])
        if stack:
            w.intr[stack[-1]] += dt
        elif base == "idle":
            w.idle += dt
        elif base == "user":
            w.user[pid] += dt
        else:
            w.sys[pid] += dt
    w.span = int(rows[-1]["t_us"]) - int(rows[0]["t_us"])
    return w


def _first_at_least(sorted_list, x):
    i = bisect.bisect_left(sorted_list, x)
    return sorted_list[i] if i < len(sorted_list) else None
