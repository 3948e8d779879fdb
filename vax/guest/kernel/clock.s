# clock.s: the 10 ms interval clock and softclock.
#
# hardclock (IPL 0x18, SCB 0xC0, interrupt stack): acknowledge, count the
# tick, charge it to the running process, end its time slice, and
# request softclock (SIRR 8), as 4.3BSD's hardclock does.
# softclock (IPL 8, SCB 0xA0): wake processes whose sleep has timed out,
# feed the simulated network (cfg_netsim), and at tick cfg_ticks shut the
# system down.

	ICCS_START = 0x800000D1		# ERR|INT|IE|XFR|RUN: load NICR, go
	ICCS_ACK = 0x800000C1		# ERR|INT|IE|RUN: clear INT/ERR, go on

	.text
	.globl	clockinit, Xhardclock, Xsoftclock

clockinit:
	mtpr	$-10000, $IPR_NICR	# 10 000 us = 10 ms
	mtpr	$ICCS_START, $IPR_ICCS
	rsb

	.align	2
Xhardclock:
	mtpr	$ICCS_ACK, $IPR_ICCS
	pushl	%r0
	incl	ticks
	tstl	idling
	bneq	2f
	movl	curproc, %r0
	beql	2f
	incl	P_TICKS(%r0)
	bitl	$PSL_CURMOD, 8(%sp)	# interrupted PSL (above r0 and PC)
	beql	1f
	incl	P_UTICKS(%r0)		# ... was in user mode
1:	sobgtr	slice, 3f		# time slice over?
	jsb	setrunrun
	brb	3f
2:	incl	idleticks
3:	mtpr	$8, $IPR_SIRR		# softclock
	movl	(%sp)+, %r0
	rei

	.align	2
Xsoftclock:
	pushr	$0xFF			# r0-r7
	incl	nsoftclock
	mtpr	$0x1F, $IPR_IPL		# proc table: at IPL 31 for the scan
	moval	proc, %r2
	movl	$NPROC, %r1
1:	cmpb	P_STAT(%r2), $SSLEEP
	bneq	2f
	movl	P_WAKE(%r2), %r0
	beql	2f
	cmpl	ticks, %r0
	blssu	2f
	jsb	setrq			# timed out: runnable
	clrl	P_WCHAN(%r2)
	clrl	P_WAKE(%r2)
	jsb	setrunrun
2:	addl2	$PROCSZ, %r2
	sobgtr	%r1, 1b
	mtpr	$8, $IPR_IPL
	jsb	netsimtick		# simulated packets, if configured
	cmpl	ticks, cfg_ticks
	blssu	3f
	jmp	shutdown		# never returns
3:	popr	$0xFF
	rei

	.data
	.globl	ticks, idleticks, nsoftclock
ticks:	.long	0			# 10 ms ticks since the clock started
idleticks: .long 0			# ticks spent idle in Swtch
nsoftclock: .long 0
