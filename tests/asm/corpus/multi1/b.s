	.text
	.align	2
	.globl	func
func:	.word	0
	movl	shared, %r2
	movab	local, %r3
	pushal	bvar2
	ret
local:	.byte	3
	.data
	.align	3
dv:	.quad	dv
	.long	func, shared
	.bss
	.align	2
bvar2:	.space	8
