# progs.s: the built-in programs, as the kernel's exec would see them.
# Each program has a descriptor (progtab, defs.s PG_*), a struct text
# whose x_iptr (+0x44) points to a struct inode with i_dev (+0x0C) and
# i_number (+0x14) -- the fields SPAM's extended records report.  All
# live on device major 0 minor 0 ("the root disk"); inode numbers start
# at 2 like a real root file system.  Program numbers (for spawn) are
# the positions in progtab: 0 init, 1 cpu, 2 syscall, 3 routed, 4 spamread, 5 crash.
# Text pages are shared by every process running the program.

	.globl	progtab, NPROGS
	NPROGS = 6

	.data
	.align	2
progtab:
	.long	prog_init, prog_init_end, text_init+KVA
	.ascii	"init"
	.space	12
	.long	prog_cpu, prog_cpu_end, text_cpu+KVA
	.ascii	"cpu"
	.space	13
	.long	prog_syscall, prog_syscall_end, text_syscall+KVA
	.ascii	"syscall"
	.space	9
	.long	prog_routed, prog_routed_end, text_routed+KVA
	.ascii	"routed"
	.space	10
	.long	prog_spamread, prog_spamread_end, text_spamread+KVA
	.ascii	"spamread"
	.space	8
	.long	prog_crash, prog_crash_end, text_crash+KVA
	.ascii	"crash"
	.space	11

# struct text: only x_iptr is used (and filled)
text_init:	.space	0x44
	.long	inode_init+KVA
text_cpu:	.space	0x44
	.long	inode_cpu+KVA
text_syscall:	.space	0x44
	.long	inode_syscall+KVA
text_routed:	.space	0x44
	.long	inode_routed+KVA
text_spamread:	.space	0x44
	.long	inode_spamread+KVA
text_crash:	.space	0x44
	.long	inode_crash+KVA

# struct inode: i_dev (short) at 0x0C, i_number (long) at 0x14
inode_init:	.space	0x0C
	.word	0x0000			# i_dev: major 0, minor 0
	.space	6
	.long	2			# i_number
	.space	8
inode_cpu:	.space	0x0C
	.word	0x0000			# i_dev: major 0, minor 0
	.space	6
	.long	3			# i_number
	.space	8
inode_syscall:	.space	0x0C
	.word	0x0000			# i_dev: major 0, minor 0
	.space	6
	.long	4			# i_number
	.space	8
inode_routed:	.space	0x0C
	.word	0x0000			# i_dev: major 0, minor 0
	.space	6
	.long	5			# i_number
	.space	8
inode_spamread:	.space	0x0C
	.word	0x0000			# i_dev: major 0, minor 0
	.space	6
	.long	6			# i_number
	.space	8
inode_crash:	.space	0x0C
	.word	0x0000			# i_dev: major 0, minor 0
	.space	6
	.long	7			# i_number
	.space	8
