# syscall.s: system calls by CHMK, as in 4.3BSD.
#
# User code calls a libc stub with CALLS, so AP points to the argument
# list (count, then arguments); the stub executes `chmk $n` with the
# system call number as the CHMK code.  The kernel entry (SCB 0x40,
# kernel stack) finds the frame  code, PC, PSL  and returns with REI:
# R0 (and R1) hold the results; on error PSL<C> is set in the returned
# PSL and R0 holds the errno, which the stub tests with `bcs`.
#
# Numbers: 4.3BSD's where 4.3BSD has the call, ours from 150 up:
#   1 exit(status)             4 write(fd, buf, len) -> len
#  13 time() -> r0 ticks since boot, r1 the shutdown tick
#  20 getpid() -> r0 pid, r1 ppid      24 getuid() -> r0 uid, r1 euid
# 151 sleep(ticks)           152 yield()
# 153 spawn(prog, uid, arg) -> pid (only uid 0 may give another uid)
# 154 netwait() -> r0 packets processed since the last call, r1 the route
#     of the last one; sleeps until there is one; ENXIO without network
# 155 onfault(handler): the next exception resumes at handler, R0 = vector
#
# A handler is entered by JSB with r11 = curproc, AP = the user's
# argument list (already checked readable for its arguments); it returns
# r2 = 0 and results in r0/r1, or r2 = errno.  It may clobber r0-r10.

	.text
	.globl	Xsyscall

	.align	2
Xsyscall:
	pushr	$0xFFC			# r2-r11: 40 bytes
	movl	curproc, %r11
	incl	P_NSYS(%r11)
	incl	nsyscall
	movl	40(%sp), %r0		# the CHMK code
	moval	systab, %r1
1:	tstl	4(%r1)
	beql	badsys			# end of the table
	cmpl	(%r1), %r0
	beql	2f
	addl2	$12, %r1
	brb	1b
2:	movl	8(%r1), %r2		# argument count: is the list readable?
	beql	3f
	incl	%r2
	ashl	$2, %r2, %r2
	prober	$3, %r2, (%ap)
	beql	efault
3:	jsb	*4(%r1)
	tstl	%r2
	bneq	err
	bicl2	$PSL_C, 48(%sp)		# success: carry clear
	brb	4f
badsys:	movl	$EINVAL, %r2
	brb	err
efault:	movl	$EFAULT, %r2
err:	movl	%r2, %r0		# failure: errno, carry set
	bisl2	$PSL_C, 48(%sp)
4:	popr	$0xFFC
	addl2	$4, %sp			# drop the code
	rei

# --- the calls ---------------------------------------------------------

sys_exit:
	movl	4(%ap), %r0
	jmp	exitproc

sys_write:
	movl	4(%ap), %r0		# fd: 1 or 2, the console
	cmpl	%r0, $1
	beql	1f
	cmpl	%r0, $2
	beql	1f
	movl	$9, %r2			# EBADF
	rsb
1:	movl	8(%ap), %r1		# buf
	movl	12(%ap), %r2		# len
	cmpl	%r2, $4096
	blequ	2f
	movl	$EINVAL, %r2
	rsb
2:	pushl	%r2
	beql	3f			# nothing to write
	prober	$3, %r2, (%r1)		# the user must be able to read it
	bneq	3f
	tstl	(%sp)+
	movl	$EFAULT, %r2
	rsb
3:	jsb	conswrite
	movl	(%sp)+, %r0
	clrl	%r2
	rsb

sys_time:
	movl	ticks, %r0
	movl	cfg_ticks, %r1
	clrl	%r2
	rsb

sys_getpid:
	cvtwl	P_PID(%r11), %r0
	cvtwl	P_PPID(%r11), %r1
	clrl	%r2
	rsb

sys_getuid:
	movl	P_UVA(%r11), %r2
	movzwl	U_RUID(%r2), %r0
	movzwl	U_UID(%r2), %r1
	clrl	%r2
	rsb

sys_sleep:
	addl3	4(%ap), ticks, %r1	# wake at now + n
	movl	%r11, %r0		# channel: the proc itself
	jsb	tsleep
	clrl	%r0
	clrl	%r2
	rsb

sys_yield:
	movpsl	-(%sp)
	jsb	Swtch
	clrl	%r0
	clrl	%r2
	rsb

sys_spawn:
	movl	8(%ap), %r1		# uid
	movl	P_UVA(%r11), %r2
	tstw	U_UID(%r2)		# root may choose any uid
	beql	1f
	movzwl	U_UID(%r2), %r1		# others: their own
1:	movl	4(%ap), %r0
	movl	12(%ap), %r2
	pushl	%r11
	jsb	newproc
	movl	(%sp)+, %r11
	clrl	%r2
	tstl	%r0
	bgeq	2f
	movl	$EAGAIN, %r2
2:	rsb

sys_onfault:
	movl	4(%ap), P_FAULTPC(%r11)
	clrl	%r0
	clrl	%r2
	rsb

	.data
	.align	2
# systab: code, handler, number of arguments; a 0 handler ends it.
systab:	.long	1, sys_exit+KVA, 1
	.long	4, sys_write+KVA, 3
	.long	13, sys_time+KVA, 0
	.long	20, sys_getpid+KVA, 0
	.long	24, sys_getuid+KVA, 0
	.long	151, sys_sleep+KVA, 1
	.long	152, sys_yield+KVA, 0
	.long	153, sys_spawn+KVA, 3
	.long	154, sys_netwait+KVA, 0
	.long	155, sys_onfault+KVA, 1
	.long	0, 0, 0
	.globl	nsyscall
nsyscall: .long	0
