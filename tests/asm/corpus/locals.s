# numeric local labels, redefinition, forward/backward references
	.text
1:	nop
	brb	1b
	brb	1f
1:	brb	1b
2:	.word	2f-2b, 1b-2b
	jbr	2f
	jbr	1f
1:	nop
2:	nop
	jeql	1b
	.space	200
	jeql	2b
	jbr	10f
10:	.long	10b
	movab	3f,%r0
	.data
3:	.asciz	"x"
	.long	3b, 1b
