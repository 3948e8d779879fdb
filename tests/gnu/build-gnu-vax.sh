#!/bin/sh
# Build GNU as, ld and binutils for vax-netbsdelf from Debian's
# binutils-source package, once, into DEST (inside the meson build tree).
# They are the external reference the differential tests compare against.
# Usage: build-gnu-vax.sh DEST STAMP
set -eu
# Both paths may be relative to the caller's directory; make them absolute
# before the build changes directory.
mkdir -p "$1" "$(dirname "$2")"
dest=$(cd "$1" && pwd)
stamp=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
if [ -x "$dest/bin/as" ] && [ -x "$dest/bin/ld" ] && [ -x "$dest/bin/objcopy" ]; then
    touch "$stamp"
    exit 0
fi
tarball=$(ls /usr/src/binutils/binutils-*.tar.* 2>/dev/null | head -n 1 || true)
if [ -z "$tarball" ]; then
    echo "build-gnu-vax: no binutils source tarball in /usr/src/binutils;" \
         "install Debian's binutils-source package (README.md, first command)" >&2
    exit 1
fi
for tool in flex bison m4 make; do
    command -v $tool >/dev/null 2>&1 || {
        echo "build-gnu-vax: $tool is missing (apt-get install flex bison m4 make)" >&2
        exit 1
    }
done
work="$dest.work"
rm -rf "$work"
mkdir -p "$work/obj" "$dest/bin"
echo "build-gnu-vax: unpacking $(basename "$tarball")"
tar -C "$work" -xf "$tarball"
src=$(ls -d "$work"/binutils-*/ | head -n 1)
cd "$work/obj"
echo "build-gnu-vax: configuring for vax-netbsdelf"
"$src/configure" --target=vax-netbsdelf --disable-nls --disable-werror \
    --disable-gdb --disable-gdbserver --disable-gprofng --disable-sim \
    --disable-libctf --disable-plugins >"$work/configure.log" 2>&1 ||
    { tail -n 30 "$work/configure.log" >&2; exit 1; }
echo "build-gnu-vax: building gas, ld and binutils (about a minute on two cores)"
jobs=$(nproc 2>/dev/null || echo 2)
make -j"$jobs" all-gas all-ld all-binutils >"$work/make.log" 2>&1 ||
    { tail -n 40 "$work/make.log" >&2; exit 1; }
cp gas/as-new "$dest/bin/as"
cp ld/ld-new "$dest/bin/ld"
cp binutils/objcopy binutils/objdump binutils/readelf "$dest/bin/"
rm -rf "$work"
touch "$stamp"
echo "build-gnu-vax: done: $dest/bin"
