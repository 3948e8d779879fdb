/* What the console's boot reads, outside the guest: a file from a `tp`
 * archive (the distribution tape's first file: seven 512-byte boot
 * blocks, then the archive, whose directory is 62 blocks from its second
 * block, each 64-byte entry a name, mode, 24-bit size and a tape address
 * counted from the archive's first block) and a file from a 4.2BSD fast
 * file system (read-only: the superblock at byte 8192, inodes found
 * through the cylinder groups, directories searched by name, direct,
 * single and double indirect blocks).  Enough to find and read /boot
 * (and, for the trace tools' names, to list every path with its inode);
 * every offset and size read from the medium is checked, so a damaged
 * medium gives an error, never a host fault. */
#ifndef VAX_IO_IO_BOOTFILE_H
#define VAX_IO_IO_BOOTFILE_H

#include <stddef.h>
#include <stdint.h>

#define IO_BOOTFILE_MAX (16u << 20)

/* tp: the archive is `len` bytes of 512-byte blocks starting with the
 * archive's block 0 (the distribution tape's block 7).  0 and *off, *size
 * of the named file inside it, or -1 with a message. */
int io_tp_find(const uint8_t *archive, size_t len, const char *name, size_t *off,
               size_t *size, char *err, size_t errlen);

/* Reads n bytes at byte offset off of the partition: 0, or -1. */
typedef int (*io_read_fn)(void *ctx, uint64_t off, void *buf, uint32_t n);

/* A file of a fast file system by its absolute path, such as /boot.  0 with a
 * malloc'd *data (the caller frees it) and *len, or -1 with a message. */
int io_ufs_read(io_read_fn rd, void *ctx, const char *path, uint8_t **data, uint32_t *len,
                char *err, size_t errlen);

/* Every name of a fast file system, depth first from the root ("/" first,
 * then "/bin", "/bin/sh"...; "." and ".." left out): fn(fctx, path, inode
 * number, mode) for each, which returns nonzero to stop.  0, or -1 with a
 * message (a damaged directory tree included: a directory larger than the
 * file system's data area, a directory met twice -- a loop --, more than
 * 64 levels or 4,000,000 names).  Directories are read one 512-byte block
 * at a time: memory is a block per level of the tree and a set of the
 * directories' inode numbers. */
#define IO_UFS_PATH_MAX 1024
typedef int (*io_ufs_walk_fn)(void *fctx, const char *path, uint32_t ino, uint16_t mode);
int io_ufs_walk(io_read_fn rd, void *ctx, io_ufs_walk_fn fn, void *fctx, char *err, size_t errlen);

#endif
