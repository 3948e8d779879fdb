# syscall.s: the system-call-heavy program.  First checks the error
# convention (write to a bad descriptor, an unknown call number: both
# must come back with the carry set and an errno), then loops on
# getpid/getuid/time, yielding the CPU after every 50 calls and sleeping
# a tick after every 500; reports once a second.

	NCALLS	= 0x8100
	NEXT	= 0x8104

	.text
	.align	9
	.globl	prog_syscall, prog_syscall_end
prog_syscall:
	pushl	$4			# write(7, "x", 1): EBADF expected
	pushab	m_x
	pushl	$7
	calls	$3, *$L_write
	pushab	m_badfd
	calls	$1, *$L_puts
	pushl	%r1
	calls	$1, *$L_putdec
	pushab	m_nl
	calls	$1, *$L_puts
	clrl	-(%sp)			# syscall(999): EINVAL expected
	clrl	-(%sp)
	clrl	-(%sp)
	pushl	$999
	calls	$4, *$L_syscall
	pushab	m_nosys
	calls	$1, *$L_puts
	pushl	%r1
	calls	$1, *$L_putdec
	pushab	m_nl
	calls	$1, *$L_puts
	calls	$0, *$L_time
	addl3	$100, %r0, *$NEXT
	movl	$10, %r10
1:	movl	$50, %r6
2:	calls	$0, *$L_getpid
	movl	%r0, %r7		# r7 = pid
	calls	$0, *$L_getuid
	movl	%r0, %r8		# r8 = uid
	calls	$0, *$L_time
	movl	%r0, %r9		# r9 = tick
	addl2	$3, *$NCALLS
	sobgtr	%r6, 2b
	calls	$0, *$L_yield
	incl	*$NCALLS
	sobgtr	%r10, 3f		# every 10 batches: sleep a tick
	movl	$10, %r10
	pushl	$1
	calls	$1, *$L_sleep
	incl	*$NCALLS
3:	cmpl	%r9, *$NEXT
	blss	1b
	addl3	$100, %r9, *$NEXT
	pushab	m1			# "syscall pid P uid U: N calls by tick T"
	calls	$1, *$L_puts
	pushl	%r7
	calls	$1, *$L_putdec
	pushab	m2
	calls	$1, *$L_puts
	pushl	%r8
	calls	$1, *$L_putdec
	pushab	m3
	calls	$1, *$L_puts
	pushl	*$NCALLS
	calls	$1, *$L_putdec
	pushab	m4
	calls	$1, *$L_puts
	pushl	%r9
	calls	$1, *$L_putdec
	pushab	m_nl
	calls	$1, *$L_puts
	brw	1b

m_x:	.ascii	"x"
m_badfd: .asciz	"syscall: write(7) -> carry set, errno "
m_nosys: .asciz	"syscall: call 999 -> carry set, errno "
m1:	.asciz	"syscall pid "
m2:	.asciz	" uid "
m3:	.asciz	": "
m4:	.asciz	" calls by tick "
m_nl:	.asciz	"\n"

	.align	9
prog_syscall_end:
