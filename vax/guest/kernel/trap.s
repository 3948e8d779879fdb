# trap.s: exceptions and stray interrupts.
#
# An exception from user mode kills the process with a console message,
# unless the process registered a fault handler (syscall onfault), in
# which case it resumes there once with R0 = the SCB vector (a one-shot
# signal; spamread uses it to find out that the SPAM opcodes are
# missing).  An exception in kernel mode is a panic, except the reserved
# operand that the network probe expects (probe_resop).
#
# Every stub pushes its vector and drops the exception's parameters,
# leaving the same frame for `fault`: vector, PC, PSL.

	.text
	.globl	Xresinst, Xxfc, Xresop, Xresadr, Xacv, Xtnv, Xtrace, Xbpt
	.globl	Xcompat, Xarith, Xchme, Xchms, Xchmu, Xksnv, Xpowerfail, Xstray
	.align	2
Xresinst: pushl	$0x10
	brb	fault
	.align	2
Xxfc:	pushl	$0x14
	brb	fault
	.align	2
Xresop:	tstl	probe_resop		# the network probe's MFPR?
	beql	1f
	movl	probe_resop, (%sp)	# resume there
	clrl	probe_resop
	rei
1:	pushl	$0x18
	brb	fault
	.align	2
Xresadr: pushl	$0x1C
	brb	fault
	.align	2
Xacv:	addl2	$8, %sp			# drop fault parameter and VA
	pushl	$0x20
	brb	fault
	.align	2
Xtnv:	addl2	$8, %sp
	pushl	$0x24
	brb	fault
	.align	2
Xtrace:	pushl	$0x28
	brb	fault
	.align	2
Xbpt:	pushl	$0x2C
	brb	fault
	.align	2
Xcompat: addl2	$4, %sp			# drop the code
	pushl	$0x30
	brb	fault
	.align	2
Xarith:	addl2	$4, %sp			# drop the type code
	pushl	$0x34
	brb	fault
	.align	2
Xchme:	addl2	$4, %sp
	pushl	$0x44
	brb	fault
	.align	2
Xchms:	addl2	$4, %sp
	pushl	$0x48
	brb	fault
	.align	2
Xchmu:	addl2	$4, %sp
	pushl	$0x4C
	brb	fault

# fault: (sp) vector, 4(sp) PC, 8(sp) PSL
fault:	bitl	$PSL_CURMOD, 8(%sp)
	jeql	kfault			# kernel mode: panic
	movl	curproc, %r1
	movl	P_FAULTPC(%r1), %r0
	beql	kill
	movl	%r0, 4(%sp)		# resume at the handler, once
	clrl	P_FAULTPC(%r1)
	movl	(%sp)+, %r0		# R0 = vector
	rei
kill:	jsb	consdrain		# let queued output go first
	mtpr	$0x1F, $IPR_IPL		# then print undisturbed
	moval	m_pid, %r0
	jsb	kputs
	cvtwl	P_PID(%r1), %r0
	jsb	kputdec
	moval	m_open, %r0
	jsb	kputs
	movl	P_UVA(%r1), %r0
	addl2	$U_COMM, %r0
	jsb	kputs
	moval	m_killed, %r0
	jsb	kputs
	movl	(%sp), %r0
	jsb	vecname
	jsb	kputs
	moval	m_atpc, %r0
	jsb	kputs
	movl	4(%sp), %r0
	jsb	kputhex
	moval	m_crlf, %r0
	jsb	kputs
	movl	(%sp), %r0		# exit status = the vector
	bisl2	$0x100, %r0		# (0x100: killed, like a signal)
	jmp	exitproc		# never returns

kfault:	moval	m_kfault, %r0
	jsb	kputs
	movl	(%sp), %r0
	jsb	vecname
	jsb	kputs
	moval	m_atpc, %r0
	jsb	kputs
	movl	4(%sp), %r0
	jsb	kputhex
	moval	m_crlf, %r0
	jsb	kputs
	moval	m_kfault2, %r0
	jsb	panic

# vecname: r0 = vector -> r0 = address of its name
vecname:
	moval	vecnames, %r1
1:	tstl	(%r1)
	beql	2f
	cmpl	(%r1), %r0
	beql	2f
	addl2	$8, %r1
	brb	1b
2:	movl	4(%r1), %r0
	rsb

	.align	2
Xksnv:	moval	m_ksnv, %r0
	jsb	panic
	.align	2
Xpowerfail:
	halt
	.align	2
Xstray:	incl	nstray			# an interrupt nobody expects
	rei

m_pid:	.asciz	"pid "
m_open:	.asciz	" ("
m_killed: .asciz ") killed: "
m_atpc:	.asciz	" at pc 0x"
m_crlf:	.asciz	"\r\n"
m_kfault: .asciz "\r\nkernel fault: "
m_kfault2: .asciz "kernel fault"
m_ksnv:	.asciz	"kernel stack not valid"
n_10:	.asciz	"reserved instruction"
n_14:	.asciz	"XFC"
n_18:	.asciz	"reserved operand"
n_1c:	.asciz	"reserved addressing mode"
n_20:	.asciz	"access violation"
n_24:	.asciz	"page not valid"
n_28:	.asciz	"trace"
n_2c:	.asciz	"breakpoint"
n_30:	.asciz	"compatibility mode"
n_34:	.asciz	"arithmetic trap"
n_4x:	.asciz	"CHME/CHMS/CHMU"
n_unk:	.asciz	"exception"

	.data
	.align	2
vecnames:
	.long	0x10, n_10+KVA,  0x14, n_14+KVA,  0x18, n_18+KVA
	.long	0x1C, n_1c+KVA,  0x20, n_20+KVA,  0x24, n_24+KVA
	.long	0x28, n_28+KVA,  0x2C, n_2c+KVA,  0x30, n_30+KVA
	.long	0x34, n_34+KVA,  0x44, n_4x+KVA,  0x48, n_4x+KVA
	.long	0x4C, n_4x+KVA,  0, n_unk+KVA
	.globl	probe_resop, nstray
probe_resop:	.long	0
nstray:		.long	0
