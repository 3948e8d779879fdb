# crash.s: misbehaves on purpose, to show that the kernel kills the
# process and carries on.  R0 at entry selects how:
#   0 a privileged instruction (MTPR in user mode: reserved instruction)
#   1 a reference to an unmapped page (P0 length violation)
#   2 an integer divide by zero (arithmetic trap)

	.text
	.align	9
	.globl	prog_crash, prog_crash_end
prog_crash:
	movl	%r0, %r6
	pushab	m_about
	calls	$1, *$L_puts
	pushl	%r6
	calls	$1, *$L_putdec
	pushab	m_nl
	calls	$1, *$L_puts
	calls	$0, *$L_flush
	casel	%r6, $0, $2
1:	.word	2f-1b, 3f-1b, 4f-1b
	brb	9f
2:	mtpr	$0, $0x12		# IPL: privileged
	brb	9f
3:	movl	*$0x00400000, %r0	# far beyond P0LR
	brb	9f
4:	clrl	%r1
	movl	$7, %r0
	divl2	%r1, %r0		# divide by zero
9:	pushab	m_alive			# not reached
	calls	$1, *$L_puts
	pushl	$0
	calls	$1, *$L_exit

m_about: .asciz	"crash: misbehaving, way "
m_alive: .asciz	"crash: still alive?\n"
m_nl:	.asciz	"\n"

	.align	9
prog_crash_end:
