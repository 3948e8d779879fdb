# sched.s: the round-robin scheduler, sleep/wakeup and the AST.
#
# Swtch is called like 4.3BSD's: `movpsl -(sp); jsb Swtch`, so that the
# pushed PC/PSL pair is what SVPCTX saves.  Round robin: runnable
# processes wait in one FIFO run queue (INSQUE/REMQUE, as 4.3BSD's queues
# without the priorities); Swtch puts the current process at the back if
# it is still runnable, takes the front one, idles at IPL 0 while the
# queue is empty, and switches exactly as 4.3BSD's Resume:
# SVPCTX, MTPR new PCBB, LDPCTX, REI.  Swtch clobbers r0-r2.
#
# Preemption: the clock sets runrun and ASTLVL = 3 when the time slice is
# used up (wakeup does the same), so the next REI to user mode raises the
# AST interrupt (IPL 2, SCB 0x88), whose handler calls Swtch.
#
# Proc-table state changes happen at IPL 31.

	.text
	.globl	Swtch, tsleep, wakeup, setrunrun, setrq, Xast

Swtch:	mtpr	$0x1F, $IPR_IPL
	clrl	runrun
	movl	curproc, %r2		# still runnable (preempted, yield)?
	beql	1f
	cmpb	P_STAT(%r2), $SRUN
	bneq	1f
	jsb	setrq			# then to the back of the queue
1:	remque	*runq, %r2		# the process at the front
	bvc	3f
	movl	$1, idling		# queue empty: wait for an interrupt
	mtpr	$0, $IPR_IPL
	nop
	nop
	mtpr	$0x1F, $IPR_IPL
	brb	1b
3:	clrl	idling
	movl	%r2, curproc
	incl	P_NRUN(%r2)
	incl	nswitch
	movl	cfg_slice, slice
	movl	P_PCBPA(%r2), %r0
	svpctx				# old context -> old PCB (now on IS)
	mtpr	%r0, $IPR_PCBB
	ldpctx				# new context; PC/PSL pushed on its kstack
	rei

# setrq: r2 = proc, made SRUN and put at the back of the run queue
# (4.3BSD's setrq; p_link/p_rlink at +0/+4 are the queue links).
# Call at IPL 31.
setrq:	movb	$SRUN, P_STAT(%r2)
	insque	(%r2), *runq+4
	rsb

# tsleep: r0 = channel, r1 = tick to wake at (0: only wakeup(chan)).
# Sleeps the current process; returns at the caller's IPL.  Clobbers r0-r2.
tsleep:	mfpr	$IPR_IPL, -(%sp)
	mtpr	$0x1F, $IPR_IPL
	movl	curproc, %r2
	movl	%r0, P_WCHAN(%r2)
	movl	%r1, P_WAKE(%r2)
	movb	$SSLEEP, P_STAT(%r2)
	movpsl	-(%sp)
	jsb	Swtch
	mtpr	(%sp)+, $IPR_IPL
	rsb

# wakeup: r0 = channel.  Makes every process sleeping on it runnable.
# Any IPL; preserves registers.
wakeup:	pushr	$0x06			# r1, r2
	mfpr	$IPR_IPL, -(%sp)
	mtpr	$0x1F, $IPR_IPL
	moval	proc, %r2
	movl	$NPROC, %r1
1:	cmpb	P_STAT(%r2), $SSLEEP
	bneq	2f
	cmpl	P_WCHAN(%r2), %r0
	bneq	2f
	jsb	setrq
	clrl	P_WCHAN(%r2)
	clrl	P_WAKE(%r2)
	jsb	setrunrun
2:	addl2	$PROCSZ, %r2
	sobgtr	%r1, 1b
	mtpr	(%sp)+, $IPR_IPL
	popr	$0x06
	rsb

# setrunrun: ask for a reschedule at the next return to user mode.
setrunrun:
	movl	$1, runrun
	mtpr	$3, $IPR_ASTLVL
	rsb

# AST interrupt (IPL 2, kernel stack): reschedule if asked to.
	.align	2
Xast:	mtpr	$4, $IPR_ASTLVL
	tstl	runrun
	beql	1f
	pushr	$0x07			# Swtch clobbers r0-r2
	movpsl	-(%sp)
	jsb	Swtch
	popr	$0x07
1:	rei

	.data
	.globl	curproc, runrun, idling, nswitch, slice
curproc: .long	0			# S0 VA of the running process
runrun:	.long	0			# a reschedule is wanted
idling:	.long	0			# Swtch is waiting for work
nswitch: .long	0			# context switches (LDPCTX)
slice:	.long	0			# ticks left in the time slice
	.globl	runq
runq:	.long	runq+KVA, runq+KVA	# run queue header (empty)

	.bss
	.align	2
	.globl	proc
proc:	.space	0x600			# the proc table: NPROC*PROCSZ bytes
