# media_write.s: a VAX program that writes its media as 4.3BSD's drivers
# start transfers (polling instead of interrupts): 8 KB from memory to
# rp0 at each of cylinders 0-19 (track 0, sector 0), then 400 tape marks
# on tu0 -- for the host write failures of tests/io/cli_io.sh (issue 33):
# images that cannot grow past a file size limit.  Kernel mode, mapping
# off; link it at 0x1000 (vasm --base 0x1000).  Halts when done.

	MBA0 = 0x20010000		# TR 8: RH780 0, rp0 its drive 0
	MBA1 = 0x20012000		# TR 9: RH780 1, the TM03 with tu0

	.text
	.globl	_start
_start:
	movl	$0xf000, %sp
	movl	$MBA0, %r11
	movl	$1, 4(%r11)		# CR: init
	movl	$0x09, 0x400(%r11)	# rp0 CS1: drive clear
	movl	$0x11, 0x400(%r11)	# preset: volume valid
	movab	0x800(%r11), %r0	# map registers 0-15: pages 0x100-0x10f
	movl	$0x80000100, %r1
	movl	$16, %r2
1:	movl	%r1, (%r0)+
	incl	%r1
	sobgtr	%r2, 1b
	clrl	%r6			# the cylinder
2:	movl	$-1, 8(%r11)		# SR: clear
	movl	%r6, 0x428(%r11)	# DC
	clrl	0x414(%r11)		# DA: track 0, sector 0
	movl	$-8192, 0x10(%r11)	# BC: 16 sectors
	clrl	0x0c(%r11)		# VA
	movl	$0x31, 0x400(%r11)	# WRITE, GO
3:	tstl	8(%r11)			# SR<31>: data transfer busy
	blss	3b
	incl	%r6
	cmpl	%r6, $20
	blss	2b

	movl	$MBA1, %r11
	movl	$1, 4(%r11)		# CR: init
	movl	$0x4c0, 0x424(%r11)	# TC: PDP-11 format, 1600 bpi, slave 0
	movl	$400, %r6
4:	movl	$0x17, 0x400(%r11)	# CS1: WRITE TAPE MARK, GO
5:	bitl	$0x80, 0x404(%r11)	# FS: drive ready
	beql	5b
	sobgtr	%r6, 4b
	halt
