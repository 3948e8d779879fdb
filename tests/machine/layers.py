#!/usr/bin/env python3
"""layers: the machine library's layers depend one way (vax/machine/README.md,
"Rooms and layers").

usage: layers.py LIBVAX8600.A VAX_MACHINE_SOURCE_DIR [NM]

Fails, naming the file and what it broke, when
  - a room calls a room at its own level or above (the calls are read from
    the library's objects with nm: a reference to a function another
    object defines), or includes a private header of a room above it;
  - the trace cache includes anything of the machine but its port
    (vm_interp.h), its own headers and the public ones;
  - anything but the lock-step check's file and the host's calls names the
    check (m->check, vm_check_*);
  - a .c file declares a function (prototypes belong in headers), a private
    header declares a function its own .c does not define (unless the build
    left that .c out: the trace compiler off x86-64), or a .c defines
    a global function that neither its own header nor a public one
    declares;
  - a file does not open with a comment saying what it is for.
"""
import os
import re
import subprocess
import sys

# Each room: its level (a room may call and include only rooms below it)
# and its files.  The hardware beside the sequencer (memory, devices, SPAM,
# the F-box) is below it: the sequencer calls it, never the other way.
ROOMS = {
    "hostmem": (0, ["vm_hostmem.c"]),
    "fbox": (0, ["vm_fbox.c", "vm_fbox.h"]),
    "mem": (1, ["vm_mem.c", "vm_mem.h", "vm_mem_fast.h"]),
    "net": (2, ["vm_net.c"]),
    "probe": (2, ["vm_probe_unit.c", "vm_probe_unit.h"]),
    "io": (2, ["vm_io.c", "vm_io.h"]),
    "dev": (3, ["vm_dev.c", "vm_dev.h"]),
    "spam": (4, ["vm_spam.c"]),
    "users": (4, ["vm_users.c", "vm_users.h"]),
    "probefree": (4, ["vm_probe_free.c", "vm_probe_free.h"]),
    "sequencer": (5, ["vm_drom.c", "vm_drom.h", "vm_cstore.c", "vm_cstore.h",
                      "vm_datapath.h", "vm_ird.c", "vm_ird.h", "vm_interp.c",
                      "vm_interp.h"]),
    "tcache": (6, ["vm_tcache.c", "vm_tcache.h", "vm_tcache_exec.c",
                   "vm_tcache_exec.h", "vm_tcache_x64.c", "vm_tcache_x64.h"]),
    "machine": (7, ["vm_machine.c", "vm_machine.h"]),
    "check": (8, ["vm_tcache_check.c", "vm_tcache_check.h"]),
    "host": (9, ["vm_host.c"]),
    "boot": (10, ["vm_boot.c"]),
}
# Headers every room may include: the public API (vm.h, and SPAM's and
# the network device's registers and calls), the machine struct, the
# register file's layout, the compiler hints, the host memory for the
# large blocks (vm_hostmem.c, which calls nothing of the machine).
PUBLIC = {"vm.h", "vm_spam.h", "vm_net.h", "vm_probe.h"}
SHARED = PUBLIC | {"vm_internal.h", "vm_regs.h", "vm_hint.h", "vm_hostmem.h"}
# Files the build may leave empty (the trace compiler where the host is
# not x86-64 Linux, or -Dtcache_native=false): their headers' declarations
# are checked only where the object defines something.
OPTIONAL = {"vm_tcache_x64.c"}
# The trace cache reaches the sequencer only through its port.
PORT = "vm_interp.h"
# The only files that name the lock-step check.
CHECK_FILES = {"vm_tcache_check.c", "vm_tcache_check.h", "vm_host.c", "vm_internal.h"}

ROOM_OF = {f: r for r, (_, fs) in ROOMS.items() for f in fs}
LEVEL = {r: lv for r, (lv, _) in ROOMS.items()}

errors = []


def fail(where, what):
    errors.append("%s: %s" % (where, what))


def strip_comments(s):
    s = re.sub(r"/\*.*?\*/", " ", s, flags=re.S)
    return re.sub(r"//[^\n]*", "", s)


def file_scope(s):
    """The text at file scope: comments, preprocessor lines and everything
    between braces (bodies, initialisers, members) gone; a brace pair is
    left as '{}'."""
    s = strip_comments(s)
    s = re.sub(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", "", s, flags=re.M)
    out, depth = [], 0
    for ch in s:
        if ch == "{":
            if depth == 0:
                out.append("{")
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                out.append("}")
        elif depth == 0:
            out.append(ch)
    return "".join(out)


def prototypes(s):
    """The functions a file declares without a body at file scope."""
    names = []
    parts = re.split(r"(\{\}|;)", file_scope(s))
    for stmt, end in zip(parts[0::2], parts[1::2]):
        if end != ";":
            continue  # a definition, a struct, an enum
        stmt = " ".join(stmt.split())
        if not stmt or stmt.startswith(("typedef", "_Static_assert")) or "=" in stmt:
            continue
        m = re.search(r"\b([A-Za-z_]\w*)\s*\([^()]*(?:\([^()]*\)[^()]*)*\)$", stmt)
        if m and not re.search(r"\(\s*\*", stmt.split(m.group(1))[0][-3:]):
            names.append(m.group(1))
    return names


def from_nm(lib, nm):
    """Per object (by source file name): the global functions it defines
    and the symbols it uses from elsewhere."""
    defs, uses = {}, {}
    out = subprocess.run([nm, "-A", lib], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        m = re.match(r".*?([^/:]+)\.c\.o:\s*(?:[0-9a-f]+)?\s+([A-Za-z])\s+(\S+)$", line)
        if not m:
            continue
        obj, kind, sym = m.group(1) + ".c", m.group(2), m.group(3)
        obj = obj.split("_", 1)[1] if obj.startswith(("machine_", "isa_", "io_", "asm_",
                                                       "dis_", "loader_")) else obj
        if kind == "T":
            defs.setdefault(obj, set()).add(sym)
        elif kind == "U":
            uses.setdefault(obj, set()).add(sym)
    return defs, uses


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    lib, src = sys.argv[1], sys.argv[2]
    nm = sys.argv[3] if len(sys.argv) > 3 else "nm"
    files = sorted(f for f in os.listdir(src) if f.endswith((".c", ".h")))
    text = {f: open(os.path.join(src, f), encoding="utf-8").read() for f in files}
    for f in files:
        if f not in ROOM_OF and f not in SHARED:
            fail(f, "a file of no room: add it to tests/machine/layers.py and the README")

    # the files open with what they are for
    for f in files:
        if not text[f].startswith("/*"):
            fail(f, "does not open with a comment saying what it is for")

    # includes
    for f in files:
        lv = LEVEL.get(ROOM_OF.get(f), 99)
        incs = re.findall(r'^#include "vax/machine/(\w+\.h)"', text[f], re.M)
        for h in incs:
            if f == "vm_internal.h" or h in SHARED or ROOM_OF.get(h) == ROOM_OF.get(f):
                continue
            if ROOM_OF.get(f) == "tcache" and h != PORT:
                fail(f, "includes %s: the trace cache reaches the sequencer only through %s"
                     % (h, PORT))
            elif LEVEL.get(ROOM_OF.get(h), 99) >= lv:
                fail(f, "includes %s, a header of the %s room, which is not below %s"
                     % (h, ROOM_OF.get(h), ROOM_OF.get(f)))

    # the lock-step check hangs in one place
    for f in files:
        if f in CHECK_FILES:
            continue
        body = strip_comments(text[f])
        if re.search(r"->check\b|\bvm_check_\w+|\bvm_tc_check\b|\bshadow\b", body):
            fail(f, "names the lock-step check: only vm_tcache_check.c and vm_host.c may")

    # declarations
    defs, uses = from_nm(lib, nm)
    defined = set().union(*defs.values()) if defs else set()
    public_decl = set()
    for h in PUBLIC:
        public_decl |= set(prototypes(text.get(h, "")))
    for f in files:
        protos = prototypes(text[f])
        if f.endswith(".c"):
            for p in protos:
                fail(f, "declares %s(): prototypes belong in headers" % p)
            own = f[:-2] + ".h"
            declared = set(prototypes(text.get(own, ""))) | public_decl
            for s in sorted(defs.get(f, set())):
                if s not in declared:
                    fail(f, "defines %s(), which neither %s nor a public header declares"
                         % (s, own))
        elif f not in PUBLIC and f != "vm_internal.h":
            mine = defs.get(f[:-2] + ".c", set())
            if not mine and f[:-2] + ".c" in OPTIONAL:
                continue  # (the build left the room's file out)
            for p in protos:
                if p not in mine:
                    fail(f, "declares %s(), which %s.c does not define" % (p, f[:-2]))
        elif f in PUBLIC:
            for p in protos:
                if p not in defined:
                    fail(f, "declares %s(), which nothing defines" % p)

    # calls
    owner = {s: f for f, ss in defs.items() for s in ss}
    for f, used in sorted(uses.items()):
        if f not in ROOM_OF:
            continue
        for s in sorted(used):
            g = owner.get(s)
            if g is None or g not in ROOM_OF or ROOM_OF[g] == ROOM_OF[f]:
                continue
            if LEVEL[ROOM_OF[g]] >= LEVEL[ROOM_OF[f]]:
                fail(f, "calls %s() of %s: the %s room may not call the %s room"
                     % (s, g, ROOM_OF[f], ROOM_OF[g]))

    for e in errors:
        print("FAIL:", e)
    if errors:
        return 1
    n = sum(len(v) for v in uses.values())
    print("layers: %d files in %d rooms, %d references checked: one way" %
          (len(files), len(ROOMS), n))
    return 0


if __name__ == "__main__":
    sys.exit(main())
