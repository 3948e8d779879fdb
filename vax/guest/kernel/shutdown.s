# shutdown.s: the clean stop at tick cfg_ticks (called from softclock).
# Lets the console ring drain, prints per-process and system statistics
# with the polled console, and halts.

	.text
	.globl	shutdown

shutdown:
	jsb	consdrain		# IPL 8: transmit interrupts still run
	mtpr	$0x1F, $IPR_IPL
	moval	m_head, %r0
	jsb	kputs
	movl	ticks, %r0
	jsb	kputdec
	moval	m_head2, %r0
	jsb	kputs
	moval	proc, %r6
	movl	$NPROC, %r7
1:	tstb	P_STAT(%r6)
	jeql	3f
	cvtwl	P_PID(%r6), %r0		# pid ppid uid
	movl	$4, %r1
	jsb	kputdecw
	cvtwl	P_PPID(%r6), %r0
	movl	$5, %r1
	jsb	kputdecw
	movzwl	P_UID(%r6), %r0
	movl	$5, %r1
	jsb	kputdecw
	movl	$32, %r0
	jsb	kputc
	jsb	kputc
	movl	P_UVA(%r6), %r0		# command, padded to 9
	addl2	$U_COMM, %r0
	jsb	kputs
	movl	P_UVA(%r6), %r2
	locc	$0, $16, U_COMM(%r2)
	subl3	%r0, $16, %r2		# name length
	subl3	%r2, $9, %r2
	bleq	2f
5:	movl	$32, %r0
	jsb	kputc
	sobgtr	%r2, 5b
2:	movzbl	P_STAT(%r6), %r0	# state
	moval	m_zomb, %r1
	cmpl	%r0, $SZOMB
	beql	4f
	moval	m_sleep, %r1
	cmpl	%r0, $SSLEEP
	beql	4f
	moval	m_run, %r1
4:	movl	%r1, %r0
	jsb	kputs
	movl	P_TICKS(%r6), %r0
	movl	$7, %r1
	jsb	kputdecw
	movl	P_UTICKS(%r6), %r0
	movl	$7, %r1
	jsb	kputdecw
	movl	P_NRUN(%r6), %r0
	movl	$7, %r1
	jsb	kputdecw
	movl	P_NSYS(%r6), %r0
	movl	$9, %r1
	jsb	kputdecw
	cmpb	P_STAT(%r6), $SZOMB
	bneq	6f
	moval	m_exit, %r0
	jsb	kputs
	movl	P_XSTAT(%r6), %r0
	jsb	kputhex
6:	moval	m_crlf3, %r0
	jsb	kputs
3:	addl2	$PROCSZ, %r6
	jsobgtr	%r7, 1b

	moval	m_sw, %r0		# system totals
	jsb	kputs
	movl	nswitch, %r0
	jsb	kputdec
	moval	m_sys, %r0
	jsb	kputs
	movl	nsyscall, %r0
	jsb	kputdec
	moval	m_idle, %r0
	jsb	kputs
	movl	idleticks, %r0
	jsb	kputdec
	moval	m_soft, %r0
	jsb	kputs
	movl	nsoftclock, %r0
	jsb	kputdec
	moval	m_cons, %r0
	jsb	kputs
	movl	nconsintr, %r0
	jsb	kputdec
	moval	m_pk, %r0
	jsb	kputs
	movl	npackets, %r0
	jsb	kputdec
	moval	m_pk2, %r0
	jsb	kputs
	movl	nnetintr, %r0
	jsb	kputdec
	moval	m_pk3, %r0
	jsb	kputs
	movl	nnetisr, %r0
	jsb	kputdec
	moval	m_pk4, %r0
	jsb	kputs
	movl	nbadsum, %r0
	jsb	kputdec
	moval	m_pk5, %r0
	jsb	kputs
	movl	nqdrop, %r0
	jsb	kputdec
	moval	m_halt, %r0
	jsb	kputs
	halt

m_head:	.asciz	"\r\nshutdown at tick "
m_head2: .ascii	"\r\n pid ppid  uid  command  state   ticks  user   runs  syscalls\r\n"
	.byte	0
m_zomb:	.asciz	"exit "
m_sleep: .asciz	"sleep"
m_run:	.asciz	"run  "
m_exit:	.asciz	"  status 0x"
m_crlf3: .asciz	"\r\n"
m_sw:	.asciz	"context switches: "
m_sys:	.asciz	"  system calls: "
m_idle:	.asciz	"  idle ticks: "
m_soft:	.asciz	"\r\nsoftclock: "
m_cons:	.asciz	"  console interrupts: "
m_pk:	.asciz	"\r\npackets: "
m_pk2:	.asciz	"  device interrupts: "
m_pk3:	.asciz	"  netisr: "
m_pk4:	.asciz	"  bad checksums: "
m_pk5:	.asciz	"  queue drops: "
m_halt:	.asciz	"\r\nhalted.\r\n"
