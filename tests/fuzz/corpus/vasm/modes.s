start:	movl	s`$5,%r0
	movl	I^$5,%r0
	movl	$0x12345678,%r2
	movl	b`4(%r1),%r2
	movl	*w`-8(%fp)[%r3],%r4
	movl	*$0x200,%r0
	movl	*(%r3)+,-(%sp)
	brw	start
	casel	%r0,$0,$1
1:	.word	2f-1b, 1b-1b
2:	getstat
	setptrs
	.byte	0xfd
	.ascii	"hi\0"
