# cpu.s: the CPU-bound program.  Counts the primes below 10000 by trial
# division, over and over; once a second of VAX time it reports how many
# rounds it has done.  R0 at entry = instance number (spawn's argument).

	ROUNDS	= 0x8100		# private data
	INST	= 0x8104
	NEXT	= 0x8108		# tick of the next report

	.text
	.align	9
	.globl	prog_cpu, prog_cpu_end
prog_cpu:
	movl	%r0, *$INST
	clrl	*$ROUNDS
	calls	$0, *$L_time
	addl3	$100, %r0, *$NEXT
1:	clrl	%r6			# r6 = primes found
	movl	$2, %r7			# r7 = candidate
2:	movl	$2, %r8			# r8 = divisor
3:	mull3	%r8, %r8, %r0
	cmpl	%r0, %r7
	bgtr	4f			# divisor^2 > candidate: prime
	divl3	%r8, %r7, %r0
	mull2	%r8, %r0
	cmpl	%r0, %r7
	beql	5f			# divides: not prime
	incl	%r8
	brb	3b
4:	incl	%r6
5:	aobleq	$10000, %r7, 2b
	incl	*$ROUNDS
	calls	$0, *$L_time		# time for a report?
	cmpl	%r0, *$NEXT
	blss	1b
	addl3	$100, %r0, *$NEXT
	pushab	m1			# "cpu #I pid P uid U: R rounds, N primes below 10000"
	calls	$1, *$L_puts
	pushl	*$INST
	calls	$1, *$L_putdec
	pushab	m2
	calls	$1, *$L_puts
	calls	$0, *$L_getpid
	pushl	%r0
	calls	$1, *$L_putdec
	pushab	m3
	calls	$1, *$L_puts
	calls	$0, *$L_getuid
	pushl	%r0
	calls	$1, *$L_putdec
	pushab	m4
	calls	$1, *$L_puts
	pushl	*$ROUNDS
	calls	$1, *$L_putdec
	pushab	m5
	calls	$1, *$L_puts
	pushl	%r6
	calls	$1, *$L_putdec
	pushab	m6
	calls	$1, *$L_puts
	brw	1b

m1:	.asciz	"cpu #"
m2:	.asciz	" pid "
m3:	.asciz	" uid "
m4:	.asciz	": "
m5:	.asciz	" rounds, "
m6:	.asciz	" primes below 10000\n"

	.align	9
prog_cpu_end:
