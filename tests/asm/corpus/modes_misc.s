# case-insensitive, registers, index modes, backquote prefixes
	.text
L0:	MOVL	%R0,%R1
	movl	%ap,%fp
	movl	%sp,(%r12)
	movl	(%r13)+,-(%r14)
	movq	$-1, %r2
	movq	$0x7fffffff, %r4
	movq	$5000, (%r1)
	movw	$-1, %r0
	movb	$-128, %r0
	movb	$255, %r0
	movl	$63, %r0
	movl	$64, %r0
	movl	s`$7, %r0
	movl	i`$7, %r0
	movl	i`$70, %r0
	movl	b`0(%r1), %r0
	movl	w`0(%r1), %r0
	movl	l`0(%r1), %r0
	movl	*b`0(%r1), %r0
	movl	0(%r1), %r0
	movl	*0(%r1), %r0
	movl	*(%r1), %r0
	movl	127(%r1), %r0
	movl	128(%r1), %r0
	movl	-128(%r1), %r0
	movl	-129(%r1), %r0
	movl	32767(%r1), %r0
	movl	-32768(%r1), %r0
	movl	-32769(%r1), %r0
	movl	0x80000000(%r1), %r0
	movl	L0(%r1), %r0
	movl	L0+4(%r1)[%r2], %r0
	movl	*L0(%r1)[%r2], %r0
	movl	w`L0, %r0
	movl	l`L0, %r0
	movl	*l`L0, %r0
	movl	L0[%r3], %r0
	movl	*L0[%r3], %r0
	movl	(%r1)+[%r2], %r0
	movl	-(%r1)[%r2], %r0
	movl	*(%r1)+[%r2], %r0
	movl	*$0x2000[%r2], %r0
	movl	0x2000, %r0
	movl	0x2000[%r1], %r0
	moval	*$0x2000, %r0
	movab	L0, %r0
	pushab	L0
	calls	$2, L0
	callg	(%ap), *8(%r1)
	jsb	L0
	jmp	*4(%r2)
	casel	%r0, $0, $2
1:	.word	2f - 1b, 3f - 1b, 4f - 1b
2:	nop
3:	nop
4:	ret
	bbs	$31, (%r1), 4b
	bbc	%r2, %r3, 4b
	extzv	$8, $8, %r1, %r2
	insv	%r0, $3, $5, (%r4)
	ffs	$0, $32, %r5, %r6
	emul	%r1, %r2, %r3, %r4
	ediv	%r1, %r2, %r3, %r4
	ashq	$-3, %r0, %r2
	mtpr	$1, $0x12
	mfpr	$0x12, %r0
	chmk	$3
	pushr	$0x3f
	movc3	$10, (%r1), (%r2)
	movc5	$0, (%r1), $32, $100, (%r2)
	locc	$32, %r0, (%r1)
	index	%r1, $0, $9, $10, %r2, %r3
	acbl	$10, $1, %r0, 4b
	aoblss	$10, %r0, 4b
	sobgtr	%r0, 4b
	brw	L0
	bsbb	4b
	bsbw	L0
