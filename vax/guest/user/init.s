# init.s: pid 1.  Starts the other programs with spawn(prog, uid, arg)
# under different uids, then sleeps forever, waking once a second.
# Program numbers: kernel/progs.s.  User code is position independent:
# text at P0 0, private data at 0x8000-0x9FFF, libc at 0xA000.

	.text
	.align	9
	.globl	prog_init, prog_init_end
prog_init:
	pushab	hello
	calls	$1, *$L_puts
	moval	table, %r6		# (prog, uid, arg) triples, prog -1 ends
1:	movl	(%r6)+, %r7
	blss	3f
	pushl	4(%r6)			# arg
	pushl	(%r6)			# uid
	pushl	%r7			# program
	calls	$3, *$L_spawn
	movl	%r0, %r8
	pushab	m_spawn			# "init: spawned pid N (prog P, uid U)"
	calls	$1, *$L_puts
	pushl	%r8
	calls	$1, *$L_putdec
	pushab	m_prog
	calls	$1, *$L_puts
	pushl	%r7
	calls	$1, *$L_putdec
	pushab	m_uid
	calls	$1, *$L_puts
	pushl	(%r6)
	calls	$1, *$L_putdec
	pushab	m_end
	calls	$1, *$L_puts
	addl2	$8, %r6
	brb	1b
3:	pushl	$100			# then idle: one wakeup a second
	calls	$1, *$L_sleep
	brb	3b

hello:	.asciz	"init: started\n"
m_spawn: .asciz	"init: spawned pid "
m_prog:	.asciz	" (program "
m_uid:	.asciz	", uid "
m_end:	.asciz	")\n"
	.align	2
table:	.long	1, 100, 0		# cpu #0
	.long	1, 101, 1		# cpu #1 (same text, another uid)
	.long	2, 102, 0		# syscall
	.long	3, 1, 0			# routed, uid 1 (daemon)
	.long	4, 0, 0			# spamread, root
	.long	5, 103, 0		# crash: privileged instruction
	.long	5, 103, 1		# crash: unmapped page
	.long	5, 103, 2		# crash: divide by zero
	.long	-1

	.align	9
prog_init_end:
