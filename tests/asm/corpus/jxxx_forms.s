# jXXX and PC-relative operands to every kind of target gas distinguishes
	.text
	.globl	gfwd, gback
gback:	nop
back:	nop
	jbr	gback			# backward global: relaxed (gas checks no flag)
	movl	gback,%r0		# backward global operand: long
	jbr	gfwd			# forward global: long jmp
	jeql	gfwd
	jsobgtr	%r1,gfwd
	jaoblss	$5,%r2,gfwd
	jacbl	$5,$1,%r2,gfwd
	jbsb	gfwd
	jbr	dlab			# forward label in .data: long
	jneq	dlab
	jlbs	%r3,dlab
	jacbw	$1,$2,%r4,back
	jbr	0x4000			# absolute target: jmp *$0x4000
	jgtr	0x4000
	jbsb	0x4000
	jacbb	$1,$2,%r4,0x4000
	jsobgeq	%r1,0x4000
	jbr	later			# absolute defined later: long PC-relative
	jleq	later
	movl	later,%r0
	movl	later(%r1),%r0		# displacement: long
	movl	$later,%r0		# immediate, not a short literal
	movl	*$later,%r0
	jbr	gfwd+4
	jbr	1f
1:	jbr	1b
	.data
dd:	.long	0
	.text
	jbr	dd			# backward label in .data: long
	jeql	dd
	# jsobgtr/jaoblss/jacbX to a label of another section are left out:
	# GNU as 2.40 writes an uninitialised byte into those forms (its
	# output changes with MALLOC_PERTURB_); test_vasm.c checks vasm's.
	movl	dd,%r0
	movl	*dd,%r0
	movl	dd[%r2],%r0
	movab	w`dd,%r0
1:	jbr	fwd
	jeql	fwd
	.space	50
gfwd:	nop
fwd:	rsb
	later = 0x1234
	.data
dlab:	.long	1
