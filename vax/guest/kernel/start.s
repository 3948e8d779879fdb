# start.s: the first bytes of the image and the boot sequence.
#
# The image is linked at 0 and loaded at physical 0.  It starts in kernel
# mode, IPL 31, on the interrupt stack, memory management off (the PSL
# 041F0000 a console gives).  Until MAPEN is on, the code runs at
# physical addresses and uses only PC-relative references; afterwards it
# runs in S0 at KVA + physical, which is what every `.long sym+KVA` and
# `$sym+0x80000000` in the kernel assumes.
#
# Boot: size memory (machine checks), build the system page table, turn
# on MAPEN, jump into S0, start the clock, probe the network interface,
# create init (pid 1), and switch to it.  Boot never returns here.

	.text
	.globl	_start
_start:	brw	boot

# Configuration block at physical 0x10, patchable by a loader before
# starting (also findable by the global symbols):
#   0x10  magic 'VGCF'
#   0x14  cfg_ticks    clock ticks (10 ms) until the clean shutdown
#   0x18  cfg_slice    time slice in ticks
#   0x1C  cfg_netsim   nonzero: without a network interface, generate
#                      pseudo packets in software every cfg_netsim ticks
#                      (testing aid for machines without the device)
	.align	4
	.globl	cfg_ticks, cfg_slice, cfg_netsim
	.ascii	"VGCF"
cfg_ticks:	.long	500
cfg_slice:	.long	4
cfg_netsim:	.long	0

boot:	mtpr	$0x1F, $IPR_IPL
	moval	istack, %r0		# zero the bss (istack is its start,
	moval	kend, %r1		# start.s being the first file)
1:	clrl	(%r0)+
	cmpl	%r0, %r1
	blssu	1b
	moval	istack_top, %sp		# physical for now
	moval	scb, %r0
	mtpr	%r0, $IPR_SCBB		# SCB: physical address
	jsb	sizemem			# -> memsize (bytes)
	jsb	mapinit			# SPT, P0 window; leaves r6 = SPT entries
	mtpr	$1, $IPR_MAPEN		# P0 identity window keeps this PC valid
	jmp	*$inS0+0x80000000	# now run in S0
inS0:	bisl2	$KVA, %sp		# the interrupt stack in S0 too
	mtpr	$0, $IPR_P0LR		# close the P0 window
	mtpr	$0, $IPR_TBIA
	movab	mchk_s0+1, scb+4	# machine checks: the S0 handler now

	moval	banner, %r0
	jsb	kputs
	movl	memsize, %r0
	ashl	$-10, %r0, %r0
	jsb	kputdec
	moval	msg_kb, %r0
	jsb	kputs

	jsb	procinit		# proc table, per-slot pages, texts
	jsb	netprobe		# network interface or not
	jsb	clockinit		# 10 ms interval clock
	jsb	mkinit			# pid 1, runnable
	moval	bootpcb, %r0		# a PCB for the boot context, which
	subl2	$KVA, %r0		# SVPCTX saves and nobody resumes
	mtpr	%r0, $IPR_PCBB
	movpsl	-(%sp)			# Swtch as 4.3BSD calls it
	jsb	Swtch
	halt				# not reached

# sizemem: probe physical memory upward in 64 KB steps from the end of
# the kernel; the first reference that machine-checks ends it (as
# 4.3BSD's locore does with badaddr).  Runs with mapping off.
sizemem:
	movab	mchk_boot+1, scb+4	# PC-relative: physical handler address
	moval	kend, %r7
	addl2	$0xFFFF, %r7
	bicl2	$0xFFFF, %r7		# first 64 KB boundary above the kernel
1:	movab	2f, probe_pc		# where a machine check resumes
	tstl	(%r7)			# NXM here => machine check
	clrl	probe_pc
	acbl	$0x1FFF0000, $0x10000, %r7, 1b
2:	clrl	probe_pc
	movl	%r7, memsize
	rsb

# Machine-check handlers.  Both the 780 and the 8600 push a byte count
# first, then that many bytes of logout, then PC and PSL: pop the count
# and the logout.  During a probe, resume at probe_pc; otherwise panic.
	.align	2
mchk_boot:				# physical: used before MAPEN
	addl2	(%sp)+, %sp
	tstl	probe_pc
	beql	1f
	movl	probe_pc, (%sp)
	rei
1:	halt
	.align	2
	.globl	mchk_s0
mchk_s0:
	addl2	(%sp)+, %sp
	tstl	probe_pc
	beql	1f
	movl	probe_pc, (%sp)
	rei
1:	moval	msg_mchk, %r0
	jsb	panic

# mapinit: system page table right above the kernel, one PTE per page of
# memory, identity (S0 page n = physical page n), kernel read/write.
# P0BR/P0LR are pointed at the same table so that P0 addresses equal
# physical ones while the PC crosses MAPEN (4.3BSD does the same).
mapinit:
	moval	kend, %r0
	addl2	$PGSIZE-1, %r0
	bicl2	$PGSIZE-1, %r0
	movl	%r0, sptpa		# physical base of the SPT
	ashl	$-9, memsize, %r6	# number of pages = number of PTEs
	clrl	%r1
1:	bisl3	$PTE_VKW, %r1, (%r0)+
	aobleq	%r6, %r1, 1b		# one spare PTE past the end (harmless)
	mtpr	sptpa, $IPR_SBR
	mtpr	%r6, $IPR_SLR
	addl3	$KVA, sptpa, %r1
	mtpr	%r1, $IPR_P0BR
	mtpr	%r6, $IPR_P0LR
	mtpr	%r1, $IPR_P1BR		# no P1 space: P1LR = 2^21
	mtpr	$0x200000, $IPR_P1LR
	ashl	$2, %r6, %r1		# SPT bytes
	addl3	sptpa, %r1, %r0
	addl2	$0x3FF, %r0		# a page more, rounded up
	bicl2	$PGSIZE-1, %r0
	movl	%r0, freepa		# first free physical page
	rsb

banner:	.ascii	"\r\nVAX guest kernel (4.3BSD-shaped, for SPAM)\r\n"
	.asciz	"memory: "
msg_kb:	.asciz	" KB\r\n"
msg_mchk: .asciz "machine check"

	.data
	.globl	memsize, sptpa, freepa
memsize:	.long	0
sptpa:		.long	0
freepa:		.long	0
probe_pc:	.long	0
	.align	2
bootpcb:	.space	128

	.bss
	.align	2
istack:	.space	4096			# the interrupt stack
	.globl	istack_top
istack_top:
